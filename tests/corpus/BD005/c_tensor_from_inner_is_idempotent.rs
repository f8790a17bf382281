// Clean (context era): `Tensor::from_inner` is an alias of `Tensor::autodiff()` since PR #5557, so it is idempotent
//@ era: context
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn as_param() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w_ad = Tensor::<2>::random([16, 16], Distribution::Default, &device);
    let p = Tensor::<2>::from_inner(w_ad);
    let q = Tensor::from_inner(p.clone().detach());
    p.require_grad().add(q)
}
