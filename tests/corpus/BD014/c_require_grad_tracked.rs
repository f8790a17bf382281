// Clean (context era): tensors on autodiff devices, lifted with `autodiff()`, `set_require_grad(false)` on a
// plain tensor, and a parameter whose kind is not known
//@ era: context
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn weights(shape: [usize; 2], unknown: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();
    let lifted = Tensor::<2>::zeros(shape, &Device::default()).autodiff().require_grad();
    let off = Tensor::<2>::ones(shape, &Device::default()).set_require_grad(false);
    w + lifted + off.autodiff() + unknown.require_grad()
}
