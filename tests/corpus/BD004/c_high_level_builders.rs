// Clean: correct high-level builders (`autodiff()` once, then `gradient_checkpointing()`), and reusing `x_ad.device()` as is
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn devices() -> (Device, Device) {
    let train = Device::default().autodiff();
    let cuda = Device::cuda(0).autodiff().gradient_checkpointing();
    (train, cuda)
}

pub fn like(x_ad: &Tensor<2>) -> Tensor<2> {
    let device = x_ad.device();
    Tensor::<2>::zeros(x_ad.shape(), &device)
}

pub fn reset_device() -> Tensor<2> {
    let x_ad = Tensor::<2>::random([4, 4], Distribution::Default, &Device::default().autodiff());
    let fresh = x_ad.device().inner().autodiff();
    Tensor::<2>::ones([4, 4], &fresh)
}
