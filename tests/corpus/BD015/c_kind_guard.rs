// Clean: the autodiff test reads the kind; an `Option` named `checkpointing` of the code's own
// settings is not a tensor's field.
//@ era: checkpointing
//@ clean
use burn::backend::{AutodiffBackend, Dispatch, DispatchTensor, DispatchTensorKind};

pub struct Settings {
    pub checkpointing: Option<u32>,
}

pub fn untracked(t: DispatchTensor) -> DispatchTensor {
    if matches!(t.kind, DispatchTensorKind::Autodiff(_)) {
        <Dispatch as AutodiffBackend>::inner(t)
    } else {
        t
    }
}

pub fn every(settings: &Settings, t: DispatchTensor) -> DispatchTensor {
    if settings.checkpointing.is_some() {
        <Dispatch as AutodiffBackend>::inner(t)
    } else {
        t
    }
}
