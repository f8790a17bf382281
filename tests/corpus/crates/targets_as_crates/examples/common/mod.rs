//! Code the examples share by `#[path = "../common/mod.rs"]`: not an example of its own (no
//! `main.rs`), and its `device` module is `common/device.rs`.
//@ clean

pub mod device;
