// Near miss: variables named like a disabled context hold `Enabled(Gcs::Disabled)` (strategy Disabled, tracking on)
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy)]
pub enum Disabled {
    Logging,
    Metrics,
}

pub struct RequestCtx {
    pub disabled: Disabled,
    pub autodiff: Ctx,
}

pub fn tracked(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x_ad = Dispatch::float_from_data(data, &ad);
    let no_checkpointing = Ctx::Enabled(Gcs::Disabled);
    let disabled_ctx = no_checkpointing;
    let ctx = RequestCtx { disabled: Disabled::Metrics, autodiff: disabled_ctx };
    dispatch::q_matmul(x_ad, q, ctx.autodiff)
}
