// H9 (checkpointing era): `Tensor::cat`/`Tensor::stack` of a tracked and a plain tensor, either order
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn joined(y: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random([2, 4], Distribution::Default, &device);
    Tensor::cat(vec![x_ad, y.no_grad()], 0) //~ BD007
}

pub fn stacked() -> Tensor<3> {
    let plain = Tensor::<2>::zeros([2, 4], &Device::default());
    let tracked = Tensor::<2>::ones([2, 4], &Device::default().autodiff());
    Tensor::stack(vec![plain, tracked], 0) //~ BD007
}
