//! An example in a folder: `mod data;` is `examples/train/data.rs`, whose device is the
//! library's autodiff one.

mod data;

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext};

fn main() {
    let x = Dispatch::float_from_data(data::rows(), &data::device());
    let w = Dispatch::float_from_data(data::rows(), &data::device());
    let _ = dispatch::q_matmul(x, w, DispatchAutodiffContext::Disabled); //~ BD001
}
