// The fix for mixed backends: one `let device = ...;` feeds every constructor, so the input and the weight
// that is quantized from it live on the same backend (CUDA) and `q_matmul` can run.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn project(data: TensorData, weights: TensorData) -> DispatchTensor {
    let device = DispatchDevice::Cuda(Default::default());
    let x = Dispatch::float_from_data(data, &device);
    let w = Dispatch::float_from_data(weights, &device);
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
