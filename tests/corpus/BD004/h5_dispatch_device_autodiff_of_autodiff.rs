// H5 (dispatch level): `DispatchDevice::autodiff` wraps a device that is already autodiff -> "Autodiff should not wrap an autodiff device."
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor, TensorMetadata};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn trainer_device() -> DispatchDevice {
    let base = ad_device();
    DispatchDevice::autodiff(base) //~ BD004
}

pub fn warmup(data: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let copy = dev.clone();
    let nested = DispatchDevice::autodiff(copy); //~ BD004
    Dispatch::float_from_data(data, &nested)
}

pub fn like(data: TensorData, zeros: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let dev = DispatchDevice::autodiff(x.device()); //~ BD004
    Dispatch::float_from_data(zeros, &dev)
}
