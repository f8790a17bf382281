//! A second example that includes the shared code by path: it is compiled into this example
//! too, so `common::device` resolves here as well.

#[path = "../common/mod.rs"]
mod common;

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext};
use burn::tensor::TensorData;

fn main() {
    let x = Dispatch::float_from_data(TensorData::from([3.0f32]), &common::device::training());
    let w = Dispatch::float_from_data(TensorData::from([4.0f32]), &common::device::training());
    let _ = dispatch::q_matmul(x, w, DispatchAutodiffContext::Disabled); //~ BD001
}
