// BD005 (context era): `<Dispatch as AutodiffBackend>::from_inner` asserts Disabled -> "tensor is already associated with autodiff"
//@ era: context
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn lift_activation(data: TensorData) -> DispatchTensor {
    let t_ad = Dispatch::float_from_data(data, &ad_device());
    let scaled = Dispatch::float_mul_scalar(t_ad, 0.5f32.into());
    <Dispatch as AutodiffBackend>::from_inner(scaled) //~ BD005
}
