//! The same helper names done right: a plain device, an `Enabled` context, a wrapper that derives the
//! context from its parameter.
//@ clean

use burn::backend::{
    DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};

pub const HEAD_CTX: Ctx = Ctx::Enabled(Gcs::Disabled);

pub fn input_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn head_ctx() -> Ctx {
    HEAD_CTX
}

pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    let ctx = x.autodiff;
    dispatch::q_matmul(x, w.clone(), ctx)
}
