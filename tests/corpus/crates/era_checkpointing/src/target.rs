//! H3 + B14: era-dependent, and this file's words look like the newer API (an `autodiff` config field), so the
//! era must come from the pinned git rev in Cargo.toml/Cargo.lock. `Tensor::from_inner` on a detached (still
//! autodiff) tensor panics "Autodiff should not wrap an autodiff tensor." on burn main 2c06be35; on burn
//! >= 0.22.0-pre.4 it is an alias of `Tensor::autodiff` and would be clean.

use burn::tensor::{Device, Distribution, Tensor};

pub struct TargetConfig {
    pub autodiff: bool,
    pub tau: f32,
}

impl Default for TargetConfig {
    fn default() -> Self {
        TargetConfig { autodiff: true, tau: 0.005 }
    }
}

impl TargetConfig {
    pub fn frozen(tau: f32) -> Self {
        TargetConfig { autodiff: false, tau }
    }
}

pub fn target_network() -> Tensor<2> {
    let device = Device::default().autodiff();
    let online = Tensor::<2>::random([16, 16], Distribution::Default, &device).require_grad();
    Tensor::from_inner(online.detach()) //~ BD005
}

pub fn soft_update(cfg: &TargetConfig, online: &Tensor<2>, target: Tensor<2>) -> Tensor<2> {
    target.mul_scalar(1.0 - cfg.tau).add(online.clone().mul_scalar(cfg.tau))
}
