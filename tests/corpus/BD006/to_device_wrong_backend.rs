// The author knew the weight had to be moved, but moved it to the wrong backend: the input lives on CUDA and
// the quantized weight is sent to WebGPU with `Dispatch::q_to_device`. Both are GPUs, yet they are different
// burn backends, so `q_matmul` still panics with "q_matmul inputs are on different backends".
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn project(data: TensorData, weights: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Cuda(Default::default()));
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Flex(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    let q = Dispatch::q_to_device(q, &DispatchDevice::Wgpu(Default::default()));
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD006
}
