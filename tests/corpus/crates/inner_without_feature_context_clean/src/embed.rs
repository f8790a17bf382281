//! Clean twin of crates/inner_without_feature: the same inference code on burn 0.22.0-pre.4, where inner()/from_inner() are no-op aliases without autodiff (#5557).
//@ clean

use burn::tensor::{Device, Tensor};

/// Features for the index: `inner()` reaches the placeholder `AutodiffBackend::inner`.
pub fn features(x: Tensor<2>) -> Tensor<2> {
    let plain = x.inner();
    plain.exp()
}

/// A constant lifted "for the loss": the placeholder `from_inner` panics too.
pub fn bias(device: &Device) -> Tensor<2> {
    let b = Tensor::<2>::ones([1, 4], device);
    Tensor::from_inner(b)
}

/// Fine: `no_grad()` returns the plain tensor as it is.
pub fn scores(x: Tensor<2>) -> Tensor<2> {
    x.no_grad().abs()
}
