// Clean: int tensors are never Autodiff kind but may carry `Enabled` (targets on a training device, hand-built int kinds)
//@ clean
use burn::backend::{
    ops::IntTensorOps, BackendTensor, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor, DispatchTensorKind, Flex, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn targets(labels: TensorData) -> DispatchTensor {
    let mut t = Dispatch::int_from_data(labels, &DispatchDevice::Flex(Default::default()));
    t.autodiff = Ctx::Enabled(Gcs::Disabled);
    t
}

pub fn int_kind(p: <Flex as burn::backend::BackendTypes>::IntTensorPrimitive) -> DispatchTensor {
    DispatchTensor {
        kind: DispatchTensorKind::Flex(BackendTensor::Int(p)),
        autodiff: Ctx::Enabled(Gcs::Balanced),
    }
}
