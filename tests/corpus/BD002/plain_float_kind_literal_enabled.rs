// BD002: a hand-built `Flex(BackendTensor::Float(p))` kind paired with `Enabled`, directly and after stripping with `inner`
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, BackendTensor, Dispatch, DispatchAutodiffContext,
    DispatchDevice, DispatchTensor, DispatchTensorKind, Flex, GradientCheckpointingStrategy,
};
use burn::tensor::TensorData;

pub fn wrap(p: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    DispatchTensor {
        kind: DispatchTensorKind::Flex(BackendTensor::Float(p)),
        autodiff: DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled), //~ BD002
    }
}

pub fn retag(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let t = Dispatch::float_from_data(data, &ad);
    let strategy = GradientCheckpointingStrategy::Balanced;
    let plain = <Dispatch as AutodiffBackend>::inner(t);
    DispatchTensor { kind: plain.kind, autodiff: DispatchAutodiffContext::Enabled(strategy) } //~ BD002
}
