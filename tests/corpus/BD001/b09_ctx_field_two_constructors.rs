// B9 (path-dependent): `training()` stores Enabled, `inference()` stores Disabled but copies the autodiff device line;
// `forward` reads both fields, so the context is only Disabled for some receivers -> warning
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct Head {
    q_w: DispatchTensor,
    device: DispatchDevice,
    ctx: Ctx,
}

impl Head {
    pub fn training(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { q_w, device: DispatchDevice::autodiff(base), ctx: Ctx::Enabled(Gcs::Disabled) }
    }

    pub fn inference(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { q_w, device: DispatchDevice::autodiff(base), ctx: Ctx::Disabled }
    }

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        dispatch::q_matmul(x, self.q_w.clone(), self.ctx) //~ WARN BD001
    }
}
