// C20 (checkpointing era): lift a guaranteed-plain tensor (`no_grad()`, plain device, `inner`) with `from_inner`
//@ era: checkpointing
//@ clean
use burn::backend::{ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

pub fn relift(x: Tensor<2>) -> Tensor<2> {
    Tensor::<2>::from_inner(x.no_grad())
}

pub fn fresh_leaf() -> Tensor<2> {
    let plain = Tensor::<2>::random([4, 4], Distribution::Default, &Device::default());
    Tensor::<2>::from_inner(plain).require_grad()
}

pub fn dispatch_roundtrip(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let t = Dispatch::float_from_data(data, &ad);
    let plain = <Dispatch as AutodiffBackend>::inner(t);
    <Dispatch as AutodiffBackend>::from_inner(plain)
}
