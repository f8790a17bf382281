//! Targets: each example, test and `src/bin` program is a crate of its own. It names this
//! library `trainkit`, its modules sit beside its `main.rs`, and two examples may each have a
//! module of the same name.
//@ clean

pub mod devices;
