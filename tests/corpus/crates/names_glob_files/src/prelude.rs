//! The crate prelude: a glob re-export of the shared helpers.
//@ clean

pub use crate::common::*;
