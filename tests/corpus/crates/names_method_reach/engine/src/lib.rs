//! Names: a method call on a receiver of unknown type is never taken to run a method of a crate
//! the caller's crate does not depend on. `engine` does not depend on `app`, so `shared.ctx.read()`
//! is std's `RwLock::read`, not `app`'s `Panel::read` (the only program method of that name), even
//! where `app` is checked and `engine` is analyzed as its dependency.
//@ clean

use std::sync::RwLock;

use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};

pub struct Shared {
    pub ctx: RwLock<Ctx>,
}

pub fn tracked() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn current(shared: &Shared) -> Ctx {
    *shared.ctx.read().unwrap()
}
