// C3: the context is read from the tensor's own `autodiff` field (consistent by construction); literals copy it too
//@ clean
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx)
}

pub fn relabel(data: TensorData) -> DispatchTensor {
    let t = Dispatch::float_from_data(data, &ad_device());
    let DispatchTensor { kind, autodiff } = t;
    DispatchTensor { kind, autodiff }
}

pub fn copy_with_field(data: TensorData) -> DispatchTensor {
    let t = Dispatch::float_from_data(data, &ad_device());
    DispatchTensor { kind: t.kind.clone(), autodiff: t.autodiff }
}
