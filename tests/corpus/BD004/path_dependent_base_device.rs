// BD004 path-dependent: the base device is autodiff only when `resume` is set, so wrapping it again is a warning
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn start(resume: bool, data: TensorData) -> DispatchTensor {
    let base = if resume { ad_device() } else { plain_device() };
    let device = DispatchDevice::autodiff(base); //~ WARN BD004
    Dispatch::float_from_data(data, &device)
}
