//! Quantized heads on burn 0.22.0-pre.4 (the `autodiff: DispatchAutodiffContext` API).
//@ clean

pub mod config;
pub mod dispatch;
pub mod head;
