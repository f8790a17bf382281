// C3 through a helper: `ctx_for(&x)` returns `x.autodiff` for the very tensor that goes into the sink
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn ctx_for(t: &DispatchTensor) -> Ctx {
    t.autodiff
}

pub fn head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = ctx_for(&x);
    dispatch::q_matmul(x, q, ctx)
}

pub fn head_inline(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let x = Dispatch::float_exp(x);
    dispatch::q_matmul(x.clone(), q, ctx_for(&x))
}

pub fn rebuild(t: DispatchTensor) -> DispatchTensor {
    let autodiff = ctx_for(&t);
    DispatchTensor { kind: t.kind, autodiff }
}

pub fn rebuilt_head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = rebuild(Dispatch::float_from_data(data, &ad_device()));
    let ctx = ctx_for(&x);
    dispatch::q_matmul(x, q, ctx)
}
