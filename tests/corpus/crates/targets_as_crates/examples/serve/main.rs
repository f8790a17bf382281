//! Another example with a `data` module of its own, on the plain device: the same code as
//! the training example's is fine here.
//@ clean

mod data;

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext};

fn main() {
    let x = Dispatch::float_from_data(data::rows(), &data::device());
    let w = Dispatch::float_from_data(data::rows(), &data::device());
    let _ = dispatch::q_matmul(x, w, DispatchAutodiffContext::Disabled);
}
