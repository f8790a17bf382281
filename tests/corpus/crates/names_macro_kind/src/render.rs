//! BD002 behind the shorthand: a plain float kind built with `backend_kind!(BackendTensor::Float(p))` paired
//! with an `Enabled` context, written by path (`crate::backend_kind!`) and by import. `plain_output` pairs the
//! same kind with `Disabled` and stays quiet.
use burn::backend::{
    BackendTensor, BackendTypes, DispatchAutodiffContext as Ctx, DispatchTensor, Flex,
    GradientCheckpointingStrategy as Gcs,
};

use crate::backend_kind;

pub fn tracked_output(p: <Flex as BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    DispatchTensor {
        kind: crate::backend_kind!(BackendTensor::Float(p)),
        autodiff: Ctx::Enabled(Gcs::Disabled), //~ BD002
    }
}

pub fn tracked_imported(p: <Flex as BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let kind = backend_kind!(BackendTensor::Float(p));
    DispatchTensor { kind, autodiff: Ctx::Enabled(Gcs::Balanced) } //~ BD002
}

pub fn plain_output(p: <Flex as BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    DispatchTensor { kind: backend_kind!(BackendTensor::Float(p)), autodiff: Ctx::Disabled }
}
