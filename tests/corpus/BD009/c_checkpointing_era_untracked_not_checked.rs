// Clean twin on burn main 2026-08 / 0.22.0-pre.1..pre.3: `backward()` has no tracked-tensor
// precondition there (the check was added after 0.22.0-pre.3).
//@ era: checkpointing
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn never_required() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device);
    let _grads = w.powf_scalar(2.0).sum().backward();
}
