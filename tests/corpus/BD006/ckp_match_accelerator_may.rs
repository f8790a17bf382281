// Checkpointing era: the weight is quantized on the accelerator picked at run time (`Accel::Cuda`,
// `Accel::Wgpu` or the CPU), while the input is always built on the CPU (`Flex`). Only the `Cpu` arm puts
// both on one backend; the two GPU arms panic with "The provided tensors are not on the same backend", so
// burnlint warns.
//@ era: checkpointing
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, DispatchTensor, TensorPrimitive,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub enum Accel {
    Cuda,
    Wgpu,
    Cpu,
}

pub fn project(accel: Accel, data: TensorData, weights: TensorData) -> TensorPrimitive<Dispatch> {
    let weight_device = match accel {
        Accel::Cuda => DispatchDevice::Cuda(Default::default()),
        Accel::Wgpu => DispatchDevice::Wgpu(Default::default()),
        Accel::Cpu => DispatchDevice::Flex(Default::default()),
    };
    let w = Dispatch::float_from_data(weights, &weight_device);
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    Dispatch::q_matmul(TensorPrimitive::Float(x), TensorPrimitive::QFloat(q)) //~ WARN BD006
}
