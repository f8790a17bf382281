// Clean twin of cfg_off_module_enabled (context era, optional `autodiff` feature): the module
// with the `Enabled(..)` context exists only when the feature is on, and the module for the
// build without it uses `Disabled`.
//@ era: context
//@ build: optional
//@ clean
#[cfg(feature = "autodiff")]
mod training {
    use burn::backend::{
        DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs,
    };

    use crate::dispatch;

    pub fn tracked(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Balanced))
    }
}

#[cfg(not(feature = "autodiff"))]
mod serving {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};

    use crate::dispatch;

    pub fn untracked(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }
}
