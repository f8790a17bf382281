// Clean: copying a neighbour's context is fine when both tensors live on the same kind of device (both plain / both autodiff)
//@ clean
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

pub fn bias_like_eval(bias: TensorData, reference: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::Flex(Default::default());
    let r = Dispatch::float_from_data(reference, &dev);
    let b = Dispatch::float_from_data(bias, &dev);
    let b = DispatchTensor { kind: b.kind, autodiff: r.autodiff };
    Dispatch::float_add(r, b)
}

pub fn bias_like_train(bias: TensorData, reference: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let r = Dispatch::float_from_data(reference, &dev);
    let b = Dispatch::float_from_data(bias, &dev);
    let b = DispatchTensor { kind: b.kind, autodiff: r.autodiff };
    Dispatch::float_add(r, b)
}
