//! Shared helpers: an autodiff input device, a `Disabled` context (function and const), and a wrapper that
//! sends its parameter to the sink with `Disabled`.
//@ clean

use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

pub const HEAD_CTX: Ctx = Ctx::Disabled;

pub fn input_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn head_ctx() -> Ctx {
    HEAD_CTX
}

pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
}
