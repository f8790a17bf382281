//! Inference paths: frozen activations, mode-dependent inputs and high-level evaluation.

use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor, DispatchTensorKind,
    GradientCheckpointingStrategy as Gcs, TensorPrimitive,
};
use burn::tensor::{Tensor, TensorData};

use crate::dispatch;

pub enum Mode {
    Train,
    Eval,
}

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

/// Marks an activation as a constant by clearing its context; the kind is left untouched.
fn freeze(t: DispatchTensor) -> DispatchTensor {
    DispatchTensor {
        kind: t.kind,
        autodiff: DispatchAutodiffContext::Disabled,
    }
}

/// Runs a cached activation through the quantized head as a constant.
pub fn frozen_head(data: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let h = Dispatch::float_from_data(data, &ad_device());
    let h = Dispatch::float_mul_scalar(h, 0.5f32.into());
    // burnlint: expect BD001
    let frozen = freeze(h);
    match Dispatch::q_matmul(TensorPrimitive::Float(frozen), TensorPrimitive::QFloat(q_w)) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!("a float lhs gives a float product"),
    }
}

/// Builds the input for `mode`; only `Train` inputs are tracked.
fn input(mode: &Mode, data: TensorData) -> DispatchTensor {
    match mode {
        Mode::Train => Dispatch::float_from_data(data, &ad_device()),
        Mode::Eval => Dispatch::float_from_data(data, &plain_device()),
    }
}

/// Scores an input built for `mode` with a fixed Disabled context.
pub fn mode_head(mode: Mode, data: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let x = match mode {
        Mode::Train => Dispatch::float_from_data(data, &ad_device()),
        Mode::Eval => Dispatch::float_from_data(data, &plain_device()),
    };
    // Path-dependent: only the `Train` arm is autodiff, so this one is a warning.
    // burnlint: expect BD001
    dispatch::q_matmul(x, q_w, DispatchAutodiffContext::Disabled)
}

/// The guarded version: the context follows the kind on both branches.
pub fn guarded_head(mode: Mode, data: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let x = input(&mode, data);
    if is_autodiff(&x) {
        dispatch::q_matmul(x, q_w, DispatchAutodiffContext::Enabled(Gcs::Disabled))
    } else {
        dispatch::q_matmul(x, q_w, DispatchAutodiffContext::Disabled)
    }
}

/// Evaluates a high-level tensor as a constant, whatever device it came from.
pub fn eval_head(x: Tensor<2>, q_weight: Tensor<2>) -> Tensor<2> {
    let x = if x.is_autodiff() {
        x.without_autodiff()
    } else {
        x
    };
    x.matmul(q_weight)
}

/// Evaluation on the inference device derived from the training device.
pub fn eval_scores(data: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let infer_dev = ad_device().inner();
    let x = Dispatch::float_from_data(data, &infer_dev);
    dispatch::q_matmul(x, q_w, DispatchAutodiffContext::Disabled)
}
