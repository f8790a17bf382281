//! Callers that glob-import the prelude (which glob re-exports `common`); `inner.rs` globs `super::*`.

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor};
use burn::tensor::TensorData;

use crate::prelude::*;

pub mod inner;

pub fn head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &input_device());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}
