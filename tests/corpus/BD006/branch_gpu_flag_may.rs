// The input goes to the GPU only when `use_gpu` is set, but the weight is always quantized on CUDA. With the
// flag on both operands are on CUDA; with it off the input is on Flex and `q_matmul` panics with "q_matmul
// inputs are on different backends". It depends on the flag, so burnlint warns.
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn score(use_gpu: bool, data: TensorData, weights: TensorData) -> DispatchTensor {
    let device = if use_gpu {
        DispatchDevice::Cuda(Default::default())
    } else {
        DispatchDevice::Flex(Default::default())
    };
    let x = Dispatch::float_from_data(data, &device);
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Cuda(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ WARN BD006
}
