//! Inference-only heads; burn is compiled without `autodiff`.
//@ clean

pub mod infer;
pub mod score;
