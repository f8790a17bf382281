// Clean twin on burn >= 0.22.0-pre.4: `inner()` is an alias of `without_autodiff()` and
// `from_inner(x)` of `x.autodiff()` (#5557); without the feature both do nothing.
//@ era: context
//@ build: off
//@ clean
use burn::tensor::Tensor;

pub fn embed(x: Tensor<2>) -> Tensor<2> {
    x.inner().abs()
}

pub fn track(x: Tensor<2>) -> Tensor<2> {
    Tensor::from_inner(x)
}
