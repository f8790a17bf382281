// Clean (checkpointing era): `inner()` on tensors that are autodiff, `no_grad()` on gradients, and
// `inner()` on a tensor whose autodiff-ness is not known
//@ era: checkpointing
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn values(shape: [usize; 2], unknown: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();
    let grads = w.clone().powf_scalar(2.0).sum().backward();
    let g = w.grad(&grads).unwrap().no_grad();
    let x = Tensor::<2>::from_inner(Tensor::<2>::ones(shape, &Device::default()));
    let detached = w.clone().detach().inner();
    g + w.inner() + x.inner() + detached + unknown.inner()
}
