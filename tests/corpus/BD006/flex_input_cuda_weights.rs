// The weights are loaded and quantized on the GPU (`DispatchDevice::Cuda`), the input batch is built on the
// CPU (`DispatchDevice::Flex`). The context is right for a plain input, but burn never moves an operand by
// itself, so the two cannot meet in `q_matmul`: it panics with "q_matmul inputs are on different backends".
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn project(data: TensorData, weights: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Cuda(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD006
}
