// The fixed twin of a train/eval switch in an inference-only crate (`//@ build: off`): the `Train` arm reports
// that training needs the `autodiff` feature instead of building an `Enabled` context, and `Eval` runs with
// `Disabled`.
//@ build: off
//@ clean
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};

pub enum Mode {
    Train,
    Eval,
}

pub fn logits(mode: Mode, x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = match mode {
        Mode::Train => panic!("training needs burn's `autodiff` feature"),
        Mode::Eval => Ctx::Disabled,
    };
    dispatch::q_matmul(x, q, ctx)
}
