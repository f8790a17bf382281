// Inspecting a context is not building one: in a crate without burn's `autodiff` feature (`//@ build: off`),
// `Ctx::Enabled(_)` appears only as a pattern (in `match` and `matches!`) to reject unexpected input. No
// Enabled context is ever created or passed to burn.
//@ build: off
//@ clean
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};

pub fn is_tracked(t: &DispatchTensor) -> bool {
    matches!(t.autodiff, Ctx::Enabled(_))
}

pub fn project(x: DispatchTensor, q: DispatchTensor) -> Result<DispatchTensor, String> {
    match x.autodiff {
        Ctx::Enabled(strategy) => Err(format!("tracked input ({strategy:?}) in an inference build")),
        Ctx::Disabled => Ok(dispatch::q_matmul(x, q, Ctx::Disabled)),
    }
}
