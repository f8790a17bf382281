// Clean (checkpointing era): before 0.22.0-pre.4 `require_grad()` on a plain float does nothing
//@ era: checkpointing
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn weights(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default();
    Tensor::<2>::random(shape, Distribution::Default, &device).require_grad()
}

pub fn retain(shape: [usize; 2]) -> Tensor<2> {
    Tensor::<2>::zeros(shape, &Device::flex()).set_require_grad(true)
}
