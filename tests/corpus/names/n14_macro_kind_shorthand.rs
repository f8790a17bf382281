// Names: crate-local `macro_rules!` shorthands for a tensor kind, as brush writes them
// (`backend_kind!(..)` expands to `::burn::backend::DispatchTensorKind::Flex(..)`), and a two-argument form
// (`kind_of!(Flex, p)`). Expanded, each literal is a plain float kind with an `Enabled` context (BD002), as in
// `DispatchTensor { kind: DispatchTensorKind::Flex(BackendTensor::Float(p)), autodiff: Enabled(..) }`.
use burn::backend::{
    BackendTensor, DispatchAutodiffContext as Ctx, DispatchTensor, DispatchTensorKind, Flex,
    GradientCheckpointingStrategy as Gcs,
};

macro_rules! backend_kind {
    ($($t:tt)*) => { ::burn::backend::DispatchTensorKind::Flex($($t)*) };
}

macro_rules! kind_of {
    ($backend:ident, $prim:expr) => {
        DispatchTensorKind::$backend(BackendTensor::Float($prim))
    };
}

pub fn wrap(p: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    DispatchTensor {
        kind: backend_kind!(BackendTensor::Float(p)),
        autodiff: Ctx::Enabled(Gcs::Disabled), //~ BD002
    }
}

pub fn wrap_two_args(p: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let kind = kind_of!(Flex, p);
    DispatchTensor { kind, autodiff: Ctx::Enabled(Gcs::Balanced) } //~ BD002
}
