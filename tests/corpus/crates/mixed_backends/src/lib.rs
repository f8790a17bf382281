//! Quantized projections whose weights are prepared on the GPU and whose inputs live on the CPU.
//@ clean

pub mod devices;
pub mod project;
