//! Context constants: `HEAD_CTX` is `Disabled` (also through `FROZEN_CTX`), `TRACKED_CTX` is `Enabled`,
//! `PLAIN_CTX` is `Disabled`.
//@ clean

use burn::backend::{DispatchAutodiffContext, GradientCheckpointingStrategy};

pub const HEAD_CTX: DispatchAutodiffContext = DispatchAutodiffContext::Disabled;
pub const FROZEN_CTX: DispatchAutodiffContext = HEAD_CTX;
pub const TRACKED_CTX: DispatchAutodiffContext =
    DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled);
pub const PLAIN_CTX: DispatchAutodiffContext = DispatchAutodiffContext::Disabled;
