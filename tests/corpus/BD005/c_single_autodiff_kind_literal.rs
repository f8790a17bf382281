// Clean: a brush-style hand-built tracked float, one `Autodiff` layer around the backend kind, with an Enabled context
//@ clean
use burn::backend::{
    Autodiff, AutodiffBackend, BackendTensor, DispatchAutodiffContext, DispatchTensor,
    DispatchTensorKind, Flex, GradientCheckpointingStrategy,
};

pub fn lift(prim: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let ad = <Autodiff<Flex> as AutodiffBackend>::from_inner(prim);
    DispatchTensor {
        kind: DispatchTensorKind::Autodiff(Box::new(DispatchTensorKind::Flex(BackendTensor::Autodiff(ad)))),
        autodiff: DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled),
    }
}
