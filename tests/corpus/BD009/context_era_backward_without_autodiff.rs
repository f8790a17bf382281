// Context era: `backward()` after `without_autodiff()` still panics (the tracked-tensor precondition)
//@ era: context
use burn::tensor::{Device, Distribution, Tensor};

pub fn stripped_loss() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let loss = w.clone().powf_scalar(2.0).sum().without_autodiff();
    let grads = loss.backward(); //~ BD009
    w.grad(&grads).unwrap()
}
