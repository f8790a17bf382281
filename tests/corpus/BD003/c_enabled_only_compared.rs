// Clean (context era, a build without burn's `autodiff` feature): `Enabled(..)` is only compared
// with the input's context, to reject a tracked input in an inference build. A context that is
// compared is never handed to burn, so building it cannot panic; the op runs with `Disabled`.
//@ era: context
//@ build: off
//@ clean
use burn::backend::{
    DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};

use crate::dispatch;

pub fn project(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    if x.autodiff == Ctx::Enabled(Gcs::Disabled) {
        panic!("a tracked input in an inference build");
    }
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
