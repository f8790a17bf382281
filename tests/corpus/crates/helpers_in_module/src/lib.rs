//! Quantized heads whose devices and contexts come from a sibling `devices` module.
//@ clean

pub mod devices;
pub mod model;
