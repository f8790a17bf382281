// Context era (0.22.0-pre.4+): `require_grad()`/`set_require_grad(true)` on a provably plain float
//@ era: context
use burn::tensor::{Device, Distribution, Tensor};

pub fn weights(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default();
    Tensor::<2>::random(shape, Distribution::Default, &device).require_grad() //~ BD014
}

pub fn retrack(w: Tensor<2>) -> Tensor<2> {
    let stripped = w.without_autodiff();
    stripped.require_grad() //~ BD014
}

pub fn retain(shape: [usize; 2]) -> Tensor<2> {
    let x = Tensor::<2>::zeros(shape, &Device::flex());
    x.set_require_grad(true) //~ BD014
}
