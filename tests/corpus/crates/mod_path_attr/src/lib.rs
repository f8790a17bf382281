//! Module tree with a `#[path]` attribute and an inline parent module:
//! `quant` lives in `src/impl/quant_impl.rs`, `nested::inner` in `src/nested/inner.rs`.
//@ clean

#[path = "impl/quant_impl.rs"]
mod quant;

mod nested {
    pub mod inner;
}

pub use nested::inner::{frozen_scores, tracked_scores};
