//! Inference heads; burn is compiled without `autodiff` (see Cargo.toml).
//@ clean

pub mod embed;
