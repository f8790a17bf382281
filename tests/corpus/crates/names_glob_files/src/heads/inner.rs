//! `use super::*` sees what `heads` imported, including the names its prelude glob brought in.

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

use super::*;

pub fn inner_head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    dispatch::q_matmul(x, q, head_ctx()) //~ BD001
}

pub fn inner_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &input_device());
    project(x, &q) //~ BD001
}
