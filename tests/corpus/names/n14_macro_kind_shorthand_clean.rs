// Names (clean twin of n14): the shorthands have the same names and call shapes, but expand to a tracked kind,
// one `Autodiff` layer around the backend kind (as burn's `from_inner` builds it), so `Enabled` is right.
// A linter that assumes `backend_kind!` means a plain backend kind (brush's) would report here.
//@ clean
use burn::backend::{
    Autodiff, AutodiffBackend, BackendTensor, DispatchAutodiffContext as Ctx, DispatchTensor,
    DispatchTensorKind, Flex, GradientCheckpointingStrategy as Gcs,
};

macro_rules! backend_kind {
    ($($t:tt)*) => {
        ::burn::backend::DispatchTensorKind::Autodiff(Box::new(::burn::backend::DispatchTensorKind::Flex($($t)*)))
    };
}

macro_rules! kind_of {
    ($backend:ident, $prim:expr) => {
        DispatchTensorKind::Autodiff(Box::new(DispatchTensorKind::$backend(BackendTensor::Autodiff($prim))))
    };
}

pub fn wrap(p: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let ad = <Autodiff<Flex> as AutodiffBackend>::from_inner(p);
    DispatchTensor {
        kind: backend_kind!(BackendTensor::Autodiff(ad)),
        autodiff: Ctx::Enabled(Gcs::Disabled),
    }
}

pub fn wrap_two_args(p: <Flex as burn::backend::BackendTypes>::FloatTensorPrimitive) -> DispatchTensor {
    let ad = <Autodiff<Flex> as AutodiffBackend>::from_inner(p);
    let kind = kind_of!(Flex, ad);
    DispatchTensor { kind, autodiff: Ctx::Enabled(Gcs::Disabled) }
}
