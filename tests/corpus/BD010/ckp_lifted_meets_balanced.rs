// Checkpointing era: a plain tensor lifted with `Tensor::from_inner` gets the default strategy
// (`Disabled`), and meets a tensor created on a device with gradient checkpointing (`Balanced`).
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn residual(x: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff().gradient_checkpointing();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device);
    let lifted = Tensor::from_inner(x.inner());
    w.matmul(lifted) //~ BD010
}
