// Clean twin of wrapper_params_on_two_backends: the same helper, called with an input and
// weights that both live on the GPU (`Cuda`), and with operands the caller itself received
// (nothing is known of them: no finding).
//@ clean
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
    let device = DispatchDevice::Cuda(Default::default());
    let x = Dispatch::float_from_data(data, &device);
    let w = Dispatch::float_from_data(weights, &device);
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    project(x, q)
}

pub fn forward(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    project(x, q)
}
