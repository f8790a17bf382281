//! Helpers exported to the `app` member; nothing here reaches a sink.
//@ clean

use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, GradientCheckpointingStrategy as Gcs};

pub fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn train_device(strategy: Gcs) -> DispatchDevice {
    DispatchDevice::autodiff_with_gradient_checkpointing(plain_device(), strategy)
}

pub fn eval_ctx() -> Ctx {
    Ctx::default()
}
