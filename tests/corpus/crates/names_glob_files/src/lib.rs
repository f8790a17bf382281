//! A crate whose modules start with `use crate::common::*;` (the layout issue 13 measured): helpers in
//! `common.rs`, a prelude that glob re-exports them, a nested `heads/inner.rs` that globs `super::*`, and a
//! root re-export under a new name. `serving.rs` defines the same names done right; nothing reaches it.
//@ clean

mod common;
mod serving;

pub mod heads;
pub mod model;
pub mod prelude;

pub use crate::common::project as frozen_project;
