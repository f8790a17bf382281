// B12 (struct update): the kind comes from an autodiff tensor, the context from `..template`, a tensor on a plain device (Disabled)
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn reuse_metadata(data: TensorData, zeros: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let template = Dispatch::float_from_data(zeros, &plain_device());
    let mixed = DispatchTensor { //~ BD001
        kind: x.kind,
        ..template
    };
    Dispatch::float_neg(mixed)
}
