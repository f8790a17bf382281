//! The workspace root's Cargo.lock pins burn 0.22.0-pre.2 (checkpointing era), where
//! `Tensor::from_inner` on an autodiff tensor wraps it again (BD005); the member's stale lock says
//! 0.22.0-pre.4 (context era), where `from_inner` is idempotent and this would be clean.
use burn::tensor::{Device, Distribution, Tensor};

pub fn as_param() -> Tensor<2> {
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &Device::default().autodiff());
    Tensor::<2>::from_inner(w) //~ BD005
}
