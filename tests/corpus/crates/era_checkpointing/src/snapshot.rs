//! B12 (checkpointing era, from Cargo.toml/Cargo.lock, no `//@ era`): a `None` checkpointing field next to an autodiff
//! kind -> "Should only be called with autodiff."; `Some(strategy)` is the consistent form.

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn train_device() -> DispatchDevice {
    let base = DispatchDevice::Flex(Default::default());
    DispatchDevice::autodiff_with_gradient_checkpointing(base, Gcs::Balanced)
}

pub fn untracked_copy(data: TensorData) -> DispatchTensor {
    let live = Dispatch::float_from_data(data, &train_device());
    let copy = DispatchTensor {
        kind: live.kind,
        checkpointing: None, //~ BD001
    };
    Dispatch::float_exp(copy)
}

pub fn tracked_copy(data: TensorData) -> DispatchTensor {
    let live = Dispatch::float_from_data(data, &train_device());
    let copy = DispatchTensor { kind: live.kind, checkpointing: Some(Gcs::Balanced) };
    Dispatch::float_exp(copy)
}
