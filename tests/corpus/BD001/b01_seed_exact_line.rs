// Seed (B1): the exact call from the error page; `autodiff_lhs` lives on an autodiff device, the context is `Disabled`
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

use crate::dispatch;

fn train_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn quantized_logits(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let device = train_device();
    let autodiff_lhs = Dispatch::float_from_data(batch, &device);
    let out = dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled); //~ BD001
    Dispatch::float_mul_scalar(out, 0.125f32.into())
}
