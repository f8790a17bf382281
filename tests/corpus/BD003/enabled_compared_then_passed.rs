// Firing twin of c_enabled_only_compared (context era, build without `autodiff`): the same
// comparison, but the branch then sends an `Enabled(..)` context to burn, which has no autodiff
// backend in this build.
//@ era: context
//@ build: off
use burn::backend::{
    DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};

use crate::dispatch;

pub fn project(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    if x.autodiff == Ctx::Enabled(Gcs::Disabled) {
        return dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled)); //~ BD003
    }
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
