//! B15 at crate level: burn has no `autodiff` feature here, yet the code builds `Enabled(..)` contexts and
//! hands them to a seed call and to a `DispatchTensor` literal -> BD003 where `Enabled(` is written.

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchTensor,
    GradientCheckpointingStrategy,
};

/// Copied from the training crate: "tracked" scoring.
pub fn tracked_head(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled); //~ BD003
    dispatch::q_matmul(x, q, ctx)
}

/// Re-labels an input as tracked before a float op.
pub fn relabel(t: DispatchTensor) -> DispatchTensor {
    let tracked = DispatchTensor {
        kind: t.kind,
        autodiff: DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Balanced), //~ BD003
    };
    Dispatch::float_exp(tracked)
}
