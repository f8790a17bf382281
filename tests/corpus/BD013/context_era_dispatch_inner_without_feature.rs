// Context era (burn >= 0.22.0-pre.4): `Tensor::inner()` is a no-op alias without the feature,
// but the `AutodiffBackend` calls still reach burn-dispatch's placeholder impl and panic.
//@ era: context
//@ build: off
use burn::backend::{AutodiffBackend, Dispatch, DispatchTensor};
use burn::tensor::Tensor;

pub fn strip(x: DispatchTensor) -> DispatchTensor {
    <Dispatch as AutodiffBackend>::inner(x) //~ BD013
}

pub fn lift(x: DispatchTensor) -> DispatchTensor {
    <Dispatch as AutodiffBackend>::from_inner(x) //~ BD013
}

pub fn alias(x: Tensor<2>) -> Tensor<2> {
    x.inner().abs()
}
