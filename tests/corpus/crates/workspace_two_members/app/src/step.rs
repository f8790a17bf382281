//! B1/B3 inside one workspace member: the autodiff device and the Disabled context come from `crate::helpers`.
//! The calls into `model_core` (another member) only ever build plain inputs, so they stay quiet either way.

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

use crate::helpers::{frozen_ctx, local_train_device};

pub fn train_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &local_train_device());
    dispatch::q_matmul(x, q, frozen_ctx()) //~ BD001
}

pub fn inline_device_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_exp(Dispatch::float_from_data(data, &dev));
    dispatch::q_matmul(x, q, crate::helpers::frozen_ctx()) //~ BD001
}

pub fn eval_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &model_core::devices::plain_device());
    dispatch::q_matmul(x, q, model_core::devices::eval_ctx())
}
