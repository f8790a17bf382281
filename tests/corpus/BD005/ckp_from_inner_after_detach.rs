// BD005 + B14 (checkpointing era): `detach()` keeps the tensor autodiff, so lifting it again with `from_inner` panics
//@ era: checkpointing
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

pub fn relift(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &ad);
    let leaf = Dispatch::float_detach(x.clone());
    <Dispatch as burn::backend::AutodiffBackend>::from_inner(leaf) //~ BD005
}

pub fn target_copy() -> Tensor<2> {
    let online = Tensor::<2>::random([4, 4], Distribution::Default, &Device::default().autodiff());
    Tensor::from_inner(online.detach()) //~ BD005
}
