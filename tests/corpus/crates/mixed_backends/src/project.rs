//! B16: the input is on a Flex-based autodiff device, the quantized weight on `DispatchDevice::Cube(..)`; the
//! context is right (Enabled for an autodiff input), but the backends differ -> "q_matmul inputs are on
//! different backends". Same-backend operands are clean.

use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

use crate::devices::{cpu_train_device, gpu_device};

pub fn mixed(data: TensorData, weights: TensorData) -> DispatchTensor {
    let cpu = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &cpu);
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Cube(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled)) //~ BD006
}

pub fn mixed_via_helpers(data: TensorData, weights: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &cpu_train_device());
    let w = Dispatch::float_from_data(weights, &gpu_device());
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx) //~ BD006
}

pub fn same_backend(data: TensorData, weights: TensorData) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let x = Dispatch::float_from_data(data, &DispatchDevice::autodiff(flex.clone()));
    let q = Dispatch::quantize_dynamic(Dispatch::float_from_data(weights, &flex), &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled))
}

pub fn same_backend_gpu(data: TensorData, weights: TensorData) -> DispatchTensor {
    let gpu = gpu_device();
    let x = Dispatch::float_from_data(data, &gpu);
    let q = Dispatch::quantize_dynamic(Dispatch::float_from_data(weights, &gpu), &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
