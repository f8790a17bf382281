// C1: the autodiff input is sanitized with `<Dispatch as AutodiffBackend>::inner` before a Disabled sink
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx,
    DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn eval_scores(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let x = <Dispatch as AutodiffBackend>::inner(x);
    dispatch::q_matmul(x, q, Ctx::Disabled)
}

pub fn eval_scores_chained(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let h = Dispatch::float_exp(Dispatch::float_from_data(data, &ad_device()));
    dispatch::q_matmul(<Dispatch as AutodiffBackend>::inner(h), q, Ctx::Disabled)
}
