//! An example that includes the shared code by path: `common::device` is
//! `examples/common/device.rs`.

#[path = "../common/mod.rs"]
mod common;

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext};
use burn::tensor::TensorData;

fn main() {
    let x = Dispatch::float_from_data(TensorData::from([1.0f32]), &common::device::training());
    let w = Dispatch::float_from_data(TensorData::from([2.0f32]), &common::device::training());
    let _ = dispatch::q_matmul(x, w, DispatchAutodiffContext::Disabled); //~ BD001
}
