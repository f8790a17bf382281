// Both operands are quantized (a quantized activation times a quantized weight, through the real trait
// method `Dispatch::q_matmul`), but the activation was quantized on Flex and the weight on NdArray. Two
// quantized tensors from different backends cannot meet either: burn panics in the quantized x quantized arm.
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, DispatchTensor, TensorPrimitive,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn int8_attention(acts: TensorData, weights: TensorData) -> TensorPrimitive<Dispatch> {
    let scheme = QuantScheme::default();
    let a = Dispatch::float_from_data(acts, &DispatchDevice::Flex(Default::default()));
    let q_a = Dispatch::quantize_dynamic(a, &scheme);
    let w = Dispatch::float_from_data(weights, &DispatchDevice::NdArray(Default::default()));
    let q_w = Dispatch::quantize_dynamic(w, &scheme);
    Dispatch::q_matmul(TensorPrimitive::QFloat(q_a), TensorPrimitive::QFloat(q_w)) //~ BD006
}
