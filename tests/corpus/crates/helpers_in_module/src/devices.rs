//! Device and context helpers shared by the crate (B3: `eval_ctx()` is `Disabled`).
//@ clean

use burn::backend::{DispatchAutodiffContext, DispatchDevice};

/// The training device: Flex wrapped in autodiff.
pub fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

/// The plain inference device.
pub fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

/// The evaluation context; `DispatchAutodiffContext::default()` is `Disabled`.
pub fn eval_ctx() -> DispatchAutodiffContext {
    DispatchAutodiffContext::default()
}
