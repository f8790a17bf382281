// Near miss (context era): `.autodiff()` on a TENSOR (PR #5557) is idempotent; it is not `Device::autodiff()`
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn lift(x: Tensor<2>) -> Tensor<2> {
    x.autodiff()
}

pub fn twice() -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random([2, 2], Distribution::Default, &device);
    let again = x_ad.clone().autodiff();
    lift(again).add(x_ad)
}
