// Clean (checkpointing era): casts of an int or bool tensor that meet a tensor of the same kind:
// both from plain tensors, both from autodiff ones
//@ era: checkpointing
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn plain_mask(shape: [usize; 2]) -> Tensor<2> {
    let x = Tensor::<2>::random(shape, Distribution::Default, &Device::default());
    let plain = Tensor::<2>::ones(shape, &Device::default());
    x.greater_elem(0.5).float().mul(plain)
}

pub fn tracked_mask(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();
    let m = x_ad.clone().argmax(1).float();
    m * x_ad
}
