//! Clean twin of `names_glob_files`: the same layout (modules that start with a glob import, a prelude that
//! glob re-exports, `heads/inner.rs` globbing `super::*`, a root re-export under a new name), but every glob
//! and re-export names `serving.rs` (plain device, Enabled context, a wrapper that derives the context).
//! `common.rs` has the same names done wrong; nothing reaches it.
//@ clean

mod common;
mod serving;

pub mod heads;
pub mod model;
pub mod prelude;

pub use crate::serving::project as frozen_project;
