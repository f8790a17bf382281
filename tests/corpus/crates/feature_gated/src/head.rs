//! C7 in use, plus B15: a `#[cfg(not(feature = "autodiff"))]` `train_ctx()` still returns `Enabled(..)`, and the
//! default build (feature off) sends it to a sink -> BD003 where `Ctx::Enabled(` is written.

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
#[cfg(feature = "autodiff")]
use burn::backend::DispatchDevice;
#[cfg(feature = "autodiff")]
use burn::tensor::TensorData;

use crate::ctx::ctx_of;

#[cfg(feature = "autodiff")]
fn train_ctx() -> Ctx {
    Ctx::Enabled(Gcs::Disabled)
}

#[cfg(not(feature = "autodiff"))]
fn train_ctx() -> Ctx {
    Ctx::Enabled(Gcs::Disabled) //~ BD003
}

/// Any input, context derived per build (C7): clean in both builds.
pub fn head(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = ctx_of(&x);
    dispatch::q_matmul(x, q, ctx)
}

/// Only compiled with the feature: an autodiff input with the derived context.
#[cfg(feature = "autodiff")]
pub fn tracked_head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    let ctx = ctx_of(&x);
    dispatch::q_matmul(x, q, ctx)
}

/// Fine-tuning entry point, compiled in both builds.
pub fn fine_tune(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let y = dispatch::q_matmul(x, q, train_ctx());
    Dispatch::float_exp(y)
}
