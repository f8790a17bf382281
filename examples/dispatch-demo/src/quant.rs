//! Quantized projection heads: scoring a batch against int8 weights.

use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext, DispatchDevice,
    DispatchTensor, GradientCheckpointingStrategy,
};
use burn::tensor::TensorData;

use crate::dispatch;

/// Scores a training batch against quantized weights.
pub fn tracked_scores(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let autodiff_lhs = Dispatch::float_from_data(batch, &device);
    // burnlint: expect BD001
    let out = dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled);
    Dispatch::float_mul_scalar(out, 0.125f32.into())
}

/// The fixed version: the context is enabled with the device's strategy.
pub fn tracked_scores_fixed(
    batch: TensorData,
    q_rhs: DispatchTensor,
    strategy: GradientCheckpointingStrategy,
) -> DispatchTensor {
    let device = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        strategy,
    );
    let autodiff_lhs = Dispatch::float_from_data(batch, &device);
    let out = dispatch::q_matmul(
        autodiff_lhs,
        q_rhs,
        DispatchAutodiffContext::Enabled(strategy),
    );
    Dispatch::float_mul_scalar(out, 0.125f32.into())
}

/// Scores without tracking: the input is stripped with `inner` first.
pub fn frozen_scores(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let lhs = Dispatch::float_from_data(batch, &device);
    let lhs = <Dispatch as AutodiffBackend>::inner(lhs);
    dispatch::q_matmul(lhs, q_rhs, DispatchAutodiffContext::Disabled)
}

/// Scores a batch that lives on the plain inference device.
pub fn plain_scores(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let lhs = Dispatch::float_from_data(batch, &DispatchDevice::Flex(Default::default()));
    dispatch::q_matmul(lhs, q_rhs, DispatchAutodiffContext::Disabled)
}

/// Scores any input; the context is read from the input itself.
pub fn scores_for(lhs: DispatchTensor, q_rhs: DispatchTensor) -> DispatchTensor {
    let ctx = lhs.autodiff;
    debug_assert!(dispatch::autodiff_tensor_in_enabled_ctx(&lhs, &ctx));
    dispatch::q_matmul(lhs, q_rhs, ctx)
}
