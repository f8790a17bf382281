//! A projection wrapper in `ops.rs`, called from the training loop in `train.rs`.
//@ clean

pub mod ops;
pub mod train;
