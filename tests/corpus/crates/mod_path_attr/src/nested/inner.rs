//! B1/B3 through `#[path]` and an inline `mod nested { pub mod inner; }`: the helpers live in `quant_impl.rs`.

use burn::backend::{ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchTensor};
use burn::tensor::TensorData;

use crate::quant::{frozen_ctx, tracked_device};

pub fn tracked_scores(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &tracked_device());
    dispatch::q_matmul(x, q, frozen_ctx()) //~ BD001
}

pub fn frozen_scores(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &crate::quant::tracked_device());
    let x = <Dispatch as AutodiffBackend>::inner(x);
    dispatch::q_matmul(x, q, super::super::quant::frozen_ctx())
}
