// Clean (context era): `<Dispatch as AutodiffBackend>::from_inner` on tensors that are plain (plain device, after `inner`)
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn lift(data: TensorData) -> DispatchTensor {
    let plain = Dispatch::float_from_data(data, &ad_device().inner());
    <Dispatch as AutodiffBackend>::from_inner(plain)
}

pub fn new_leaf(data: TensorData) -> DispatchTensor {
    let t = Dispatch::float_from_data(data, &ad_device());
    let t = Dispatch::float_detach(t);
    let t = <Dispatch as AutodiffBackend>::inner(t);
    <Dispatch as AutodiffBackend>::from_inner(t)
}
