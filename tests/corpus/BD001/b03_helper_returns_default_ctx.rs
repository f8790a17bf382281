// B3: a same-file helper returns `Ctx::default()` (== Disabled); `head` forwards its parameter, so that report is at the call
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

fn eval_ctx() -> Ctx {
    Ctx::default()
}

fn head(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(x, q, eval_ctx())
}

pub fn main_loop(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    head(x, q) //~ BD001
}

pub fn eval_loop(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &plain_device());
    head(x, q)
}

pub fn inline_head(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let x = Dispatch::float_exp(x);
    dispatch::q_matmul(x, q, eval_ctx()) //~ BD001
}
