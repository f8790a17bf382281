//! The crate prelude: a glob re-export of the `serving` helpers.
//@ clean

pub use crate::serving::*;
