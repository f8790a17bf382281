//! H13 at crate level: "strip autodiff to be safe" in a crate that has none.

use burn::tensor::{Device, Tensor};

/// Features for the index: `inner()` reaches the placeholder `AutodiffBackend::inner`.
pub fn features(x: Tensor<2>) -> Tensor<2> {
    let plain = x.inner(); //~ BD013
    plain.exp()
}

/// A constant lifted "for the loss": the placeholder `from_inner` panics too.
pub fn bias(device: &Device) -> Tensor<2> {
    let b = Tensor::<2>::ones([1, 4], device);
    Tensor::from_inner(b) //~ BD013
}

/// Fine: `no_grad()` returns the plain tensor as it is.
pub fn scores(x: Tensor<2>) -> Tensor<2> {
    x.no_grad().abs()
}
