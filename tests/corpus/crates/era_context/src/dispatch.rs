//! The project's own context-taking `q_matmul` (the seed API), as in `examples/dispatch-demo`.
//@ clean

use burn::backend::{
    ops::QTensorOps, Dispatch, DispatchAutodiffContext, DispatchTensor, TensorPrimitive,
};

/// Multiplies the float `lhs` by the quantized `rhs`, routing `lhs` with the autodiff context `ctx`.
pub fn q_matmul(
    lhs: DispatchTensor,
    rhs: DispatchTensor,
    ctx: DispatchAutodiffContext,
) -> DispatchTensor {
    match Dispatch::q_matmul(
        TensorPrimitive::Float(DispatchTensor { kind: lhs.kind, autodiff: ctx }),
        TensorPrimitive::QFloat(rhs),
    ) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!("a float lhs gives a float product"),
    }
}
