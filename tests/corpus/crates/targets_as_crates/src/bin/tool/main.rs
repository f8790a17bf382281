//! A binary in a folder: `mod util;` is `src/bin/tool/util.rs`, not a module of the library.

mod util;

use burn::backend::{ops::FloatTensorOps, Dispatch};
use burn::tensor::TensorData;

fn main() {
    let x = Dispatch::float_from_data(TensorData::from([1.0f32]), &trainkit::devices::tracked());
    let w = Dispatch::float_from_data(TensorData::from([2.0f32]), &trainkit::devices::tracked());
    let _ = dispatch::q_matmul(x, w, util::context()); //~ BD001
}
