//! Devices, a context helper and a projection wrapper. `input_device()` is autodiff, `head_ctx()` is
//! `Disabled`, and `project` sends its parameter to the sink with `Disabled` (only right for plain inputs).
//@ clean

use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

pub fn input_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn eval_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn head_ctx() -> Ctx {
    Ctx::Disabled
}

pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
}
