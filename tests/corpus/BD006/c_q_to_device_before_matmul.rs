// The weight was quantized on CUDA, but before the product it is moved onto the input's backend with
// `Dispatch::q_to_device`. Moving the quantized side is the right choice (an autodiff float cannot change
// backend), and afterwards both operands are on Flex.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn project(data: TensorData, weights: TensorData) -> DispatchTensor {
    let cpu = DispatchDevice::Flex(Default::default());
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Cuda(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    let q = Dispatch::q_to_device(q, &cpu);
    let x = Dispatch::float_from_data(data, &cpu);
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
