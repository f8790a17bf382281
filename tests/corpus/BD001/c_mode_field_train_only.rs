// Mode field set in the constructor, the good direction: `mode` is only ever `Train`, so `ctx()` is always Enabled
// for the autodiff device field; the eval path strips the input with `inner` first
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy)]
enum Mode {
    Train,
    Eval,
}

pub struct Runner {
    mode: Mode,
    device: DispatchDevice,
    q_w: DispatchTensor,
}

impl Runner {
    pub fn new(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { mode: Mode::Train, device: DispatchDevice::autodiff(base), q_w }
    }

    fn ctx(&self) -> Ctx {
        match self.mode {
            Mode::Train => Ctx::Enabled(Gcs::Disabled),
            Mode::Eval => Ctx::Disabled,
        }
    }

    pub fn run(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        dispatch::q_matmul(x, self.q_w.clone(), self.ctx())
    }

    pub fn run_frozen(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        let x = <Dispatch as AutodiffBackend>::inner(x);
        dispatch::q_matmul(x, self.q_w.clone(), Ctx::Disabled)
    }
}
