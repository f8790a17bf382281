// A pair of `train_ctx()` helpers, one per build, where the `not(autodiff)` one was copied from the autodiff
// build and still returns `Enabled(..)`. `fine_tune` is compiled in both builds, so the default build (feature
// off) hands that context to `q_matmul` and burn panics with "autodiff context requires the `autodiff`
// feature". burnlint points at the `Enabled` written in the helper.
//@ build: optional
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs};

#[cfg(feature = "autodiff")]
fn train_ctx() -> Ctx {
    Ctx::Enabled(Gcs::Disabled)
}

#[cfg(not(feature = "autodiff"))]
fn train_ctx() -> Ctx {
    Ctx::Enabled(Gcs::Disabled) //~ BD003
}

pub fn fine_tune(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(x, q, train_ctx())
}
