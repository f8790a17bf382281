// B14: `float_detach` / `Tensor::detach` only cut the graph; the tensor is still autodiff when it meets `Disabled`
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn frozen_features(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x_ad = Dispatch::float_from_data(data, &ad_device());
    let frozen = Dispatch::float_detach(x_ad.clone());
    dispatch::q_matmul(frozen, q, Ctx::Disabled) //~ BD001
}

pub fn frozen_embedding() -> DispatchTensor {
    let device = Device::default().autodiff();
    let emb = Tensor::<2>::random([128, 32], Distribution::Default, &device);
    let frozen = emb.detach().into_dispatch();
    DispatchTensor { kind: frozen.kind, autodiff: Ctx::Disabled } //~ BD001
}
