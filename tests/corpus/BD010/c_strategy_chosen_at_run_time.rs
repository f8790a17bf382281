// Clean: the strategy is chosen at run time, once, and both operands are created on that one
// device; each may be either strategy, but they agree. Operands the caller passes in are not
// known either. Neither is a finding.
//@ clean
use burn::tensor::{Device, Tensor};

pub fn masked(values: [f32; 4], checkpoint: bool) -> Tensor<1> {
    let base = Device::default().autodiff();
    let device = if checkpoint { base.gradient_checkpointing() } else { base };
    let weights = Tensor::<1>::from_floats(values, &device);
    let mask = Tensor::<1>::ones([4], &device);
    weights * mask
}

pub fn combine(a: Tensor<1>, b: Tensor<1>) -> Tensor<1> {
    a * b
}
