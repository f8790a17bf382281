// C11: the inference device is derived with `.inner()`, which strips autodiff before any tensor is created
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn infer(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let infer_dev = ad_device().inner();
    let x = Dispatch::float_from_data(data, &infer_dev);
    dispatch::q_matmul(x, q, DispatchAutodiffContext::Disabled)
}

pub fn infer_high_level(train_device: &Device) -> DispatchTensor {
    let eval_device = train_device.clone().inner();
    let x = Tensor::<2>::random([4, 4], Distribution::Default, &eval_device);
    let d = x.into_dispatch();
    DispatchTensor { kind: d.kind, autodiff: DispatchAutodiffContext::Disabled }
}
