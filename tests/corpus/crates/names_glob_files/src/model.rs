//! Callers that glob-import `crate::common::*` (and one root re-export, `crate::frozen_project`).

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

use crate::common::*;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &input_device());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}

pub fn score_ctx(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, head_ctx()) //~ BD001
}

pub fn score_const(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, HEAD_CTX) //~ BD001
}

pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_exp(Dispatch::float_from_data(data, &ad_device()));
    project(x, &q) //~ BD001
}

pub fn score_reexported(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    crate::frozen_project(x, &q) //~ BD001
}
