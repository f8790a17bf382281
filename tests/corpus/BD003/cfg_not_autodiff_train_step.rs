// The inference build (`#[cfg(not(feature = "autodiff"))]`) kept a copy of the training step that still asks
// for `Ctx::Enabled(..)`. Without the feature burn-dispatch has no autodiff backend to run it, so `q_matmul`
// panics with "autodiff context requires the `autodiff` feature". The crate's own `autodiff` feature forwards
// to burn's and is off by default (`//@ build: optional`).
//@ build: optional
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs};

#[cfg(not(feature = "autodiff"))]
pub fn train_step(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = Ctx::Enabled(Gcs::Disabled); //~ BD003
    dispatch::q_matmul(x, q, ctx)
}
