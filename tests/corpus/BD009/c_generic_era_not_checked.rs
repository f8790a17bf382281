// Clean (generic era, burn <= 0.21): no dispatch API, so no high-level dispatch rule applies
//@ era: generic
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn plain_device_loss() {
    let device = Device::default();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let _grads = w.powf_scalar(2.0).sum().no_grad().backward();
}
