//! Same-crate helpers of the `app` member (B3: `frozen_ctx()` is `Disabled`).
//@ clean

use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};

pub(crate) fn frozen_ctx() -> Ctx {
    Ctx::Disabled
}

pub(crate) fn local_train_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}
