// Clean: an Autodiff kind with `Enabled` (hand-built and via `from_inner`), and a strategy retag on an autodiff tensor
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Autodiff, AutodiffBackend, BackendTensor, Dispatch, DispatchAutodiffContext,
    DispatchDevice, DispatchTensor, DispatchTensorKind, Flex, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn lift(prim: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let ad = <Autodiff<Flex> as AutodiffBackend>::from_inner(prim);
    DispatchTensor {
        kind: DispatchTensorKind::Autodiff(Box::new(DispatchTensorKind::Flex(BackendTensor::Autodiff(ad)))),
        autodiff: DispatchAutodiffContext::Enabled(Gcs::Disabled),
    }
}

pub fn balanced(data: TensorData) -> DispatchTensor {
    let plain = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    let mut t = <Dispatch as AutodiffBackend>::from_inner(plain);
    t.autodiff = DispatchAutodiffContext::Enabled(Gcs::Balanced);
    t
}
