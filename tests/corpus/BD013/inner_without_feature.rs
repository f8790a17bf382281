// H13 (checkpointing era): the crate depends on burn without its `autodiff` feature, so
// `AutodiffBackend` is burn-dispatch's placeholder and `inner`/`from_inner` panic on any tensor.
//@ era: checkpointing
//@ build: off
use burn::tensor::Tensor;

pub fn embed(x: Tensor<2>) -> Tensor<2> {
    x.inner().abs() //~ BD013
}

pub fn strip(x: Tensor<2>) -> Tensor<2> {
    Tensor::inner(x) //~ BD013
}

pub fn track(x: Tensor<2>) -> Tensor<2> {
    Tensor::from_inner(x) //~ BD013
}
