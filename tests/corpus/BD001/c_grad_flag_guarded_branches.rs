// B11 fixed: the server still toggles a flag, but each branch makes the tensor agree with the context
// (Enabled for the autodiff input, `inner` + Disabled when tracking is off)
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct Server {
    grad_enabled: bool,
    strategy: Gcs,
    device: DispatchDevice,
    q_w: DispatchTensor,
}

impl Server {
    pub fn new(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { grad_enabled: true, strategy: Gcs::Disabled, device: DispatchDevice::autodiff(base), q_w }
    }

    pub fn set_grad(&mut self, on: bool) {
        self.grad_enabled = on;
    }

    pub fn handle(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        if self.grad_enabled {
            dispatch::q_matmul(x, self.q_w.clone(), Ctx::Enabled(self.strategy))
        } else {
            let x = <Dispatch as AutodiffBackend>::inner(x);
            dispatch::q_matmul(x, self.q_w.clone(), Ctx::Disabled)
        }
    }
}
