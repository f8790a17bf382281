// The projection is a helper that takes both operands as parameters, so nothing inside it says
// where they live. The caller builds the input on the CPU (`Flex`) and the quantized weights on
// the GPU (`Cuda`): the helper's `q_matmul` panics for this call, and the finding is on the call.
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

use crate::dispatch;

fn project(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx)
}

pub fn head(data: TensorData, weights: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Cuda(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    project(x, q) //~ BD006
}
