//! Clean twin of crates/untracked_loss on burn 0.22.0-pre.2 (no tracked-tensor check there).
//@ clean

use burn::tensor::{Device, Distribution, Tensor};

pub fn step() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([16, 16], Distribution::Default, &device);
    let x = Tensor::<2>::ones([4, 16], &device);
    let loss = x.matmul(w).powf_scalar(2.0).mean();
    let _grads = loss.backward();
}

/// Fine: the weights are a tracked leaf.
pub fn tracked_step() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([16, 16], Distribution::Default, &device).require_grad();
    let x = Tensor::<2>::ones([4, 16], &device);
    let _grads = x.matmul(w).powf_scalar(2.0).mean().backward();
}
