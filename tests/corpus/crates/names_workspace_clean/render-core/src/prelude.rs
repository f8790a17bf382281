//! `use render_core::prelude::*;` brings in every helper and constant.
//@ clean

pub use crate::consts::*;
pub use crate::ops::*;
