// Clean twin: the same calls where burn's `autodiff` feature is on.
//@ era: checkpointing
//@ build: on
//@ clean
use burn::tensor::Tensor;

pub fn embed(x: Tensor<2>) -> Tensor<2> {
    x.inner().abs()
}

pub fn track(x: Tensor<2>) -> Tensor<2> {
    Tensor::from_inner(x)
}
