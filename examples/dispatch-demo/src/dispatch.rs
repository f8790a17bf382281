//! Thin helpers over the dispatch backend: a context-taking `q_matmul`, predicates and devices.

use burn::backend::{
    ops::QTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy, TensorPrimitive,
};

/// Multiplies the float `lhs` by the quantized `rhs`, routing `lhs` with the autodiff context `ctx`.
///
/// `ctx` must match `lhs`: `Enabled(_)` for an autodiff float, `Disabled` otherwise.
pub fn q_matmul(
    lhs: DispatchTensor,
    rhs: DispatchTensor,
    ctx: DispatchAutodiffContext,
) -> DispatchTensor {
    match Dispatch::q_matmul(
        TensorPrimitive::Float(DispatchTensor {
            kind: lhs.kind,
            autodiff: ctx,
        }),
        TensorPrimitive::QFloat(rhs),
    ) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!("a float lhs gives a float product"),
    }
}

/// Whether `t` is an autodiff float (its kind is wrapped in `DispatchTensorKind::Autodiff`).
pub fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

/// The seed's invariant: an autodiff float must travel with an enabled context.
pub fn autodiff_tensor_in_enabled_ctx(t: &DispatchTensor, ctx: &DispatchAutodiffContext) -> bool {
    !matches!(t.kind, DispatchTensorKind::Autodiff(_))
        || matches!(ctx, DispatchAutodiffContext::Enabled(_))
}

/// The context that matches `t`, derived from its kind.
pub fn context_for(
    t: &DispatchTensor,
    strategy: GradientCheckpointingStrategy,
) -> DispatchAutodiffContext {
    if is_autodiff(t) {
        DispatchAutodiffContext::Enabled(strategy)
    } else {
        DispatchAutodiffContext::Disabled
    }
}

/// The plain Flex device used for inference.
pub fn flex_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}
