//! B1 (context era, from Cargo.lock): one autodiff input with a Disabled context through the crate's own
//! `dispatch::q_matmul`; the other heads are correct.

use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

use crate::dispatch;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn tracked_scores(batch: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(batch, &ad_device());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}

pub fn tracked_scores_fixed(batch: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(batch, &ad_device());
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled))
}

pub fn frozen_scores(batch: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = <Dispatch as AutodiffBackend>::inner(Dispatch::float_from_data(batch, &ad_device()));
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
