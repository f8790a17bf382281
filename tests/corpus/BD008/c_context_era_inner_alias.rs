// Clean (context era): `Tensor::inner` is an alias of `without_autodiff()` (#5557), so the h2 code runs
//@ era: context
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn clipped_gradient() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let grads = w.clone().powf_scalar(2.0).sum().backward();
    let g = w.grad(&grads).unwrap().inner();
    g.clamp(-1.0, 1.0)
}

pub fn features(shape: [usize; 2]) -> Tensor<2> {
    Tensor::<2>::ones(shape, &Device::default()).inner()
}
