// BD002: a plain bias tensor copies the context of a neighbouring autodiff tensor (`autodiff: other.autodiff`), i.e. Enabled
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

fn train_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn bias_like(bias: TensorData, reference: TensorData) -> DispatchTensor {
    let r = Dispatch::float_from_data(reference, &train_device());
    let b = Dispatch::float_from_data(bias, &DispatchDevice::Flex(Default::default()));
    let b = DispatchTensor {
        kind: b.kind,
        autodiff: r.autodiff, //~ BD002
    };
    Dispatch::float_add(r, b)
}
