//! C7: one `ctx_of` per build; without `autodiff` the only correct context is `Disabled`.
//@ clean

use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};
#[cfg(feature = "autodiff")]
use burn::backend::DispatchTensorKind;
#[cfg(feature = "autodiff")]
use burn::backend::GradientCheckpointingStrategy as Gcs;

#[cfg(feature = "autodiff")]
pub fn ctx_of(t: &DispatchTensor) -> Ctx {
    if matches!(t.kind, DispatchTensorKind::Autodiff(_)) {
        Ctx::Enabled(Gcs::Disabled)
    } else {
        Ctx::Disabled
    }
}

#[cfg(not(feature = "autodiff"))]
pub fn ctx_of(_t: &DispatchTensor) -> Ctx {
    Ctx::Disabled
}
