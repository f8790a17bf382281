// Fields across methods: `new` stores Enabled, but `freeze(&mut self)` overwrites the field with Disabled;
// the tensor always comes from the autodiff device, so the sink is a path-dependent warning
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct Tower {
    device: DispatchDevice,
    ctx: Ctx,
    q_w: DispatchTensor,
}

impl Tower {
    pub fn new(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { device: DispatchDevice::autodiff(base), ctx: Ctx::Enabled(Gcs::Disabled), q_w }
    }

    /// "Freeze the tower for evaluation" -- but the device stays autodiff.
    pub fn freeze(&mut self) {
        self.ctx = Ctx::Disabled;
    }

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        dispatch::q_matmul(x, self.q_w.clone(), self.ctx) //~ WARN BD001
    }
}
