// Re-labelling a tensor as tracked by writing `autodiff: Enabled(..)` into a `DispatchTensor` literal, in a
// crate whose burn has no `autodiff` feature (`//@ build: off`). The kind is left as it was, the context
// claims autodiff, and the next float op panics with "autodiff context requires the `autodiff` feature".
//@ build: off
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};

pub fn mark_tracked(t: DispatchTensor) -> DispatchTensor {
    let tracked = DispatchTensor {
        kind: t.kind,
        autodiff: Ctx::Enabled(Gcs::Disabled), //~ BD003
    };
    Dispatch::float_exp(tracked)
}
