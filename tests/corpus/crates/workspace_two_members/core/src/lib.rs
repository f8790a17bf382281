//! Shared device and context helpers for the workspace.
//@ clean

pub mod devices;
