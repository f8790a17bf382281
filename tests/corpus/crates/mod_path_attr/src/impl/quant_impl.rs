//! Helpers reached through `#[path = "impl/quant_impl.rs"] mod quant;` (B3: `frozen_ctx()` is `Disabled`).
//@ clean

use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};

/// The device training batches are built on.
pub(crate) fn tracked_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

/// The context used for "frozen" evaluation heads.
pub(crate) fn frozen_ctx() -> Ctx {
    Ctx::Disabled
}
