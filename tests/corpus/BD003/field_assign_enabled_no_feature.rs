// Flipping a tensor's context by assignment (`x.autodiff = Ctx::Enabled(..)`) before a quantized product, in a
// crate built without burn's `autodiff` feature (`//@ build: off`). No autodiff backend exists to honour that
// context, so `q_matmul` panics with "autodiff context requires the `autodiff` feature".
//@ build: off
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs};

pub fn project_tracked(mut x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    x.autodiff = Ctx::Enabled(Gcs::Disabled); //~ BD003
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx)
}
