//! Snapshots and target networks on the 2026-08 dispatch API.
//@ clean

pub mod snapshot;
pub mod target;
