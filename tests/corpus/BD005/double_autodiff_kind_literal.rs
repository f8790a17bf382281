// BD005: hand-built kinds `Autodiff(Box::new(Autodiff(..)))` / `Autodiff(Box::new(t_ad.kind))` are double-wrapped -> "Autodiff should not wrap an autodiff tensor."
use burn::backend::{
    ops::FloatTensorOps, Autodiff, AutodiffBackend, BackendTensor, Dispatch,
    DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor, DispatchTensorKind, Flex,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn wrap(prim: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let ad = <Autodiff<Flex> as AutodiffBackend>::from_inner(prim);
    DispatchTensor {
        kind: DispatchTensorKind::Autodiff(Box::new(DispatchTensorKind::Autodiff(Box::new( //~ BD005
            DispatchTensorKind::Flex(BackendTensor::Autodiff(ad)),
        )))),
        autodiff: Ctx::Enabled(Gcs::Disabled),
    }
}

pub fn wrap_inline(kind: DispatchTensorKind) -> DispatchTensorKind {
    DispatchTensorKind::Autodiff(Box::new(DispatchTensorKind::Autodiff(Box::new(kind)))) //~ BD005
}

pub fn rewrap(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let t = Dispatch::float_from_data(data, &ad);
    DispatchTensor {
        kind: DispatchTensorKind::Autodiff(Box::new(t.kind)), //~ BD005
        autodiff: t.autodiff,
    }
}
