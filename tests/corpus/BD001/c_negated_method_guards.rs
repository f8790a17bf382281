// Negated high-level guards: `!x.is_autodiff()` and `!x.device().is_autodiff()` select the plain path for the
// Disabled literal / sink; the tracked path strips with `without_autodiff()` first
//@ clean
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};
use burn::tensor::Tensor;

pub fn to_constant(x: Tensor<2>) -> DispatchTensor {
    if !x.is_autodiff() {
        let d = x.into_dispatch();
        return DispatchTensor { kind: d.kind, autodiff: Ctx::Disabled };
    }
    x.without_autodiff().into_dispatch()
}

pub fn score(x: Tensor<2>, q: DispatchTensor) -> DispatchTensor {
    if !x.device().is_autodiff() {
        dispatch::q_matmul(x.into_dispatch(), q, Ctx::Disabled)
    } else {
        dispatch::q_matmul(x.without_autodiff().into_dispatch(), q, Ctx::Disabled)
    }
}
