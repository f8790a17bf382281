// H3 (checkpointing era): `Tensor::from_inner` on a tensor that is already autodiff -> "Autodiff should not wrap an autodiff tensor."
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn as_param() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w_ad = Tensor::<2>::random([16, 16], Distribution::Default, &device);
    let p = Tensor::<2>::from_inner(w_ad); //~ BD005
    p.require_grad()
}
