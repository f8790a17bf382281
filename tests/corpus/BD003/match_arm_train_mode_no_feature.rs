// An inference-only crate (burn is built without `autodiff`, `//@ build: off`) still has a `Mode::Train` arm
// that picks an `Enabled(..)` context. Whenever that arm is taken, `q_matmul` panics with "autodiff context
// requires the `autodiff` feature"; the `Eval` arm is fine.
//@ build: off
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs};

pub enum Mode {
    Train,
    Eval,
}

pub fn logits(mode: Mode, x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = match mode {
        Mode::Train => Ctx::Enabled(Gcs::Balanced), //~ BD003
        Mode::Eval => Ctx::Disabled,
    };
    dispatch::q_matmul(x, q, ctx)
}
