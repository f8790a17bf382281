// Fires (context era, a crate whose own `autodiff` feature forwards to burn's): the serving
// module only exists when that feature is off, and one of its functions still sends an
// `Enabled(..)` context to burn, which has no autodiff backend in that build. The `cfg` sits on
// the module, not on the function: everything inside inherits it.
//@ era: context
//@ build: optional
#[cfg(not(feature = "autodiff"))]
mod serving {
    use burn::backend::{
        DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs,
    };

    use crate::dispatch;

    pub fn tracked(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Balanced)) //~ BD003
    }

    pub fn untracked(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }
}
