// Checkpointing era, real trait method: the input and the quantized weight are both created on NdArray, so
// `Dispatch::q_matmul` has nothing to complain about.
//@ era: checkpointing
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, TensorPrimitive,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn project(data: TensorData, weights: TensorData) -> TensorPrimitive<Dispatch> {
    let cpu = DispatchDevice::NdArray(Default::default());
    let x = Dispatch::float_from_data(data, &cpu);
    let q = Dispatch::quantize_dynamic(Dispatch::float_from_data(weights, &cpu), &QuantScheme::default());
    Dispatch::q_matmul(TensorPrimitive::Float(x), TensorPrimitive::QFloat(q))
}
