// H4: `backward()` on a loss stripped of autodiff, or computed from tensors of a plain device
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn stripped_loss() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let loss = w.clone().powf_scalar(2.0).sum().no_grad();
    let grads = loss.backward(); //~ BD009
    w.grad(&grads).unwrap()
}

pub fn plain_device_loss() {
    let device = Device::default();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let _grads = w.powf_scalar(2.0).sum().backward(); //~ BD009
}
