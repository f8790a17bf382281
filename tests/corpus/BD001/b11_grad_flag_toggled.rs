// B11: a server toggles gradient tracking with `set_grad`; the context follows the flag, not the tensor, and the
// input always comes from the autodiff device -> Disabled only after `set_grad(false)`: warning
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
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

    fn ctx(&self) -> Ctx {
        if self.grad_enabled { Ctx::Enabled(self.strategy) } else { Ctx::Disabled }
    }

    pub fn set_grad(&mut self, on: bool) {
        self.grad_enabled = on;
    }

    pub fn handle(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        dispatch::q_matmul(x, self.q_w.clone(), self.ctx()) //~ WARN BD001
    }
}
