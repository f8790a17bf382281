// C10: tensors created on plain (non-autodiff) devices, at the dispatch level and through the high-level API
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn eval_scores(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &plain_device());
    let x = Dispatch::float_detach(x);
    dispatch::q_matmul(x, q, Ctx::Disabled)
}

pub fn eval_high_level(q: DispatchTensor) -> DispatchTensor {
    let device = Device::default();
    let x = Tensor::<2>::random([2, 8], Distribution::Default, &device).into_dispatch();
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
