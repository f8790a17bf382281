// H11: `.gradient_checkpointing()` before `.autodiff()` in a builder chain, and on a plain device bound first
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn init(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::cuda(0).gradient_checkpointing().autodiff(); //~ BD012
    Tensor::<2>::random(shape, Distribution::Default, &device).require_grad()
}

pub fn split() -> Device {
    let base = Device::default();
    let balanced = base.gradient_checkpointing(); //~ BD012
    balanced.autodiff()
}
