// H10 (checkpointing era): an int or bool tensor computed from an autodiff tensor and cast back
// to float is autodiff again (the relift), and meets a plain tensor
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn relift(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();
    let plain = Tensor::<2>::ones(shape, &Device::default());
    let m = x_ad.clone().argmax(1).float();
    m * plain //~ BD007
}

pub fn mask(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();
    let plain = Tensor::<2>::ones(shape, &Device::default());
    x_ad.greater_elem(0.5).float().mul(plain) //~ BD007
}
