// B9 + B11: a `mode` field is only ever set to `Eval` (in `new`, never mutated), so `ctx()` always returns Disabled
// while the device field is autodiff
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
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
        Self { mode: Mode::Eval, device: DispatchDevice::autodiff(base), q_w }
    }

    fn ctx(&self) -> Ctx {
        match self.mode {
            Mode::Train => Ctx::Enabled(Gcs::Disabled),
            Mode::Eval => Ctx::Disabled,
        }
    }

    pub fn run(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        dispatch::q_matmul(x, self.q_w.clone(), self.ctx()) //~ BD001
    }
}
