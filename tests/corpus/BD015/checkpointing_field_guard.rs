// Checkpointing era: a tensor's `checkpointing` field used as the autodiff test. Gradients are
// plain tensors that keep `Some(..)`, so the autodiff branch runs for them and panics.
//@ era: checkpointing
use burn::backend::{
    AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};

pub fn is_autodiff(t: &DispatchTensor) -> bool {
    t.checkpointing.is_some() //~ WARN BD015
}

pub fn untracked(t: DispatchTensor) -> DispatchTensor {
    if t.checkpointing.is_none() { //~ WARN BD015
        t
    } else {
        <Dispatch as AutodiffBackend>::inner(t)
    }
}

pub fn head(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = if x.checkpointing.is_some() { Some(Gcs::Balanced) } else { None }; //~ WARN BD015
    dispatch::q_matmul(x, q, ctx)
}
