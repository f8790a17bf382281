// Checkpointing era (burn main before #5520), through the real trait method `Dispatch::q_matmul`: the input
// is on Flex, the quantized weight on CUDA. Binary ops of that era panic with "The provided tensors are not
// on the same backend. Got backends .. and ..".
//@ era: checkpointing
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, DispatchTensor, TensorPrimitive,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn project(data: TensorData, weights: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Cuda(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    match Dispatch::q_matmul(TensorPrimitive::Float(x), TensorPrimitive::QFloat(q)) { //~ BD006
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(out) => Dispatch::dequantize(out),
    }
}
