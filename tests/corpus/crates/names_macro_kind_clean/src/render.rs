//! The shorthand builds an autodiff kind around `BackendTensor::Autodiff(..)`; paired with `Enabled`, by path
//! and by import.
//@ clean

use burn::backend::{
    Autodiff, AutodiffBackend, BackendTensor, BackendTypes, DispatchAutodiffContext as Ctx, DispatchTensor,
    Flex, GradientCheckpointingStrategy as Gcs,
};

use crate::backend_kind;

pub fn tracked_output(p: <Flex as BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let ad = <Autodiff<Flex> as AutodiffBackend>::from_inner(p);
    DispatchTensor {
        kind: crate::backend_kind!(BackendTensor::Autodiff(ad)),
        autodiff: Ctx::Enabled(Gcs::Disabled),
    }
}

pub fn tracked_imported(p: <Flex as BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let ad = <Autodiff<Flex> as AutodiffBackend>::from_inner(p);
    let kind = backend_kind!(BackendTensor::Autodiff(ad));
    DispatchTensor { kind, autodiff: Ctx::Enabled(Gcs::Disabled) }
}
