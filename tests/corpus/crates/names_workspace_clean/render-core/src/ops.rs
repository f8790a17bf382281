//! Devices, a context helper and a projection wrapper (clean twin of `names_workspace`): `input_device()` is
//! plain, `head_ctx()` is `Enabled`, and `project` derives the context from its parameter.
//@ clean

use burn::backend::{
    DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};

pub fn input_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn eval_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn head_ctx() -> Ctx {
    Ctx::Enabled(Gcs::Disabled)
}

pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    let ctx = x.autodiff;
    dispatch::q_matmul(x, w.clone(), ctx)
}
