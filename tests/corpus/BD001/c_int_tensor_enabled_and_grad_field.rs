// Int tensors are never Autodiff kind, and a gradient is plain: clearing their contexts is consistent
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, IntTensorOps},
    AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub fn detach_targets(labels: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let mut targets = Dispatch::int_from_data(labels, &ad);
    targets.autodiff = Ctx::Disabled;
    targets
}

pub fn grad_as_constant(w: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let w = Dispatch::float_set_require_grad(Dispatch::float_from_data(w, &ad), true);
    let grads = <Dispatch as AutodiffBackend>::backward(Dispatch::float_sum(w.clone()));
    let g = <Dispatch as AutodiffBackend>::grad(&w, &grads).unwrap();
    DispatchTensor { kind: g.kind, autodiff: Ctx::Disabled }
}
