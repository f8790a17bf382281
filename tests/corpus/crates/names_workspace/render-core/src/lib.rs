//! Helpers shared by the workspace (brush's layout: helpers in one member, callers in the others). The
//! crate is `render-core` in Cargo.toml and `render_core` in paths.
//@ clean

pub mod consts;
pub mod ops;
pub mod prelude;
