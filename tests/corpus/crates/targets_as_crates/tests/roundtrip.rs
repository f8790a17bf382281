//! An integration test: `mod common;` is `tests/common/mod.rs`.

mod common;

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext};
use burn::tensor::TensorData;

#[test]
fn roundtrip() {
    let x = Dispatch::float_from_data(TensorData::from([1.0f32]), &common::device());
    let w = Dispatch::float_from_data(TensorData::from([2.0f32]), &common::device());
    let _ = dispatch::q_matmul(x, w, DispatchAutodiffContext::Disabled); //~ BD001
}
