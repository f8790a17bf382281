//! The inference path of the same crate: only `Disabled` (or the tensor's own context) is used.
//@ clean

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub fn head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    dispatch::q_matmul(x, q, DispatchAutodiffContext::Disabled)
}

pub fn passthrough(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx)
}

pub fn constant(t: DispatchTensor) -> DispatchTensor {
    Dispatch::float_exp(DispatchTensor { kind: t.kind, autodiff: DispatchAutodiffContext::default() })
}
