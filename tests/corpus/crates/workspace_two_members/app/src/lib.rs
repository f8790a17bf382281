//! Training and evaluation steps built on `model-core`.
//@ clean

mod helpers;
pub mod step;
