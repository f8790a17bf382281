//! B6 wrapper defined in its own file: `project` sends its parameter to the sink with `Disabled`, so it is only
//! correct for plain inputs; `project_derived` (C12) derives the context from its parameter.
//@ clean

use burn::backend::{
    DispatchAutodiffContext as Ctx, DispatchTensor, DispatchTensorKind,
    GradientCheckpointingStrategy as Gcs,
};

/// Projects a plain activation through quantized weights.
pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
}

/// Projects any activation; the context follows the input's kind.
pub fn project_derived(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    let ctx = if matches!(x.kind, DispatchTensorKind::Autodiff(_)) {
        Ctx::Enabled(Gcs::Disabled)
    } else {
        Ctx::Disabled
    };
    dispatch::q_matmul(x, w.clone(), ctx)
}
