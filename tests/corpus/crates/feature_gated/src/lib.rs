//! Heads that build with or without the crate's `autodiff` feature (off by default).
//@ clean

pub mod ctx;
pub mod head;

#[cfg(feature = "autodiff")]
pub mod train;
