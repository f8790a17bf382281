//! Training glue: devices, a tracked step with quantized weights and a gradient read-out.

use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext, DispatchDevice,
    DispatchTensor, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{quantization::QuantScheme, Device, Distribution, Tensor, TensorData};

use crate::dispatch;

/// The training device, with or without balanced gradient checkpointing.
pub fn training_device(balanced: bool) -> DispatchDevice {
    let base = DispatchDevice::Flex(Default::default());
    if balanced {
        DispatchDevice::autodiff_with_gradient_checkpointing(base, Gcs::Balanced)
    } else {
        DispatchDevice::autodiff(base)
    }
}

/// Activations for a run that switches balanced checkpointing on.
pub fn checkpointed_activations(data: TensorData) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    // burnlint: expect BD004
    let balanced = DispatchDevice::autodiff_with_gradient_checkpointing(device, Gcs::Balanced);
    Dispatch::float_from_data(data, &balanced)
}

/// The fixed version: re-wrap the inner device with the new strategy.
pub fn checkpointed_activations_fixed(data: TensorData) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let balanced =
        DispatchDevice::autodiff_with_gradient_checkpointing(device.inner(), Gcs::Balanced);
    Dispatch::float_from_data(data, &balanced)
}

/// One tracked step through a quantized projection; returns the quantized gradient read-out.
pub fn quantized_step(w: TensorData, x: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let device = training_device(false);
    let w = Dispatch::float_set_require_grad(Dispatch::float_from_data(w, &device), true);
    let x = Dispatch::float_from_data(x, &device);
    let h = Dispatch::float_matmul(x, w.clone());
    let ctx = h.autodiff;
    let y = dispatch::q_matmul(h, q_w.clone(), ctx);
    let grads = <Dispatch as AutodiffBackend>::backward(Dispatch::float_sum(y));
    let g = <Dispatch as AutodiffBackend>::grad(&w, &grads).expect("w is tracked");
    dispatch::q_matmul(g, q_w, DispatchAutodiffContext::Disabled)
}

/// The high-level counterpart: a tracked path through `w` plus a constant quantized copy of it.
pub fn high_level_step(scheme: &QuantScheme) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([16, 16], Distribution::Default, &device).require_grad();
    let x = Tensor::<2>::random([8, 16], Distribution::Default, &device);
    let q_weight = w.clone().without_autodiff().quantize_dynamic(scheme);
    let y = x.clone().matmul(w.clone()).add(x.matmul(q_weight));
    let grads = y.sum().backward();
    w.grad(&grads).expect("w is tracked")
}
