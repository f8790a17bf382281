//! Era comes from Cargo.lock, not from this file's words: the config has a `checkpointing: bool` field (which
//! looks like the 2026-08 API to a text heuristic), and `Tensor::from_inner` on a detached autodiff tensor is an
//! alias of `autodiff()` on 0.22.0-pre.4, so nothing here panics.
//@ clean

use burn::tensor::{Device, Distribution, Tensor};

pub struct TrainConfig {
    pub checkpointing: bool,
    pub lr: f64,
}

pub fn device_for(cfg: &TrainConfig) -> Device {
    let device = Device::default().autodiff();
    if cfg.checkpointing { device.gradient_checkpointing() } else { device }
}

pub fn target_network(cfg: &TrainConfig) -> Tensor<2> {
    let online = Tensor::<2>::random([16, 16], Distribution::Default, &device_for(cfg)).require_grad();
    Tensor::from_inner(online.detach())
}
