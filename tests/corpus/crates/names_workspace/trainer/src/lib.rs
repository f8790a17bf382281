//! Training steps built on the `render-core` member.
//@ clean

pub mod step;
