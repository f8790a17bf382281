// The input is decoded on the CPU and then moved onto the weight's backend with `Dispatch::float_to_device`
// before the product; both operands of `q_matmul` are on WebGPU.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn project(data: TensorData, weights: TensorData) -> DispatchTensor {
    let gpu = DispatchDevice::Wgpu(Default::default());
    let w = Dispatch::float_from_data(weights, &gpu);
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_to_device(x, &gpu);
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
