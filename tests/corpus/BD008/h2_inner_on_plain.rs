// H2 (checkpointing era): `inner()` on a gradient, on a tensor from a plain device, after `no_grad()`
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn clipped_gradient() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let grads = w.clone().powf_scalar(2.0).sum().backward();
    let g = w.grad(&grads).unwrap().inner(); //~ BD008
    g.clamp(-1.0, 1.0)
}

pub fn features(shape: [usize; 2]) -> Tensor<2> {
    let x = Tensor::<2>::ones(shape, &Device::default());
    x.inner() //~ BD008
}

pub fn twice(x: Tensor<2>) -> Tensor<2> {
    let plain = x.no_grad();
    Tensor::inner(plain) //~ BD008
}
