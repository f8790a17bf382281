//! Gradient post-processing; burn 0.22.0-pre.2.

use burn::backend::{AutodiffBackend, Dispatch, DispatchTensor};

/// Strips autodiff "if there is any": gradients keep `checkpointing: Some(..)`, so they take the
/// first branch and `inner` panics on them.
pub fn untracked(t: DispatchTensor) -> DispatchTensor {
    if t.checkpointing.is_some() { //~ WARN BD015
        <Dispatch as AutodiffBackend>::inner(t)
    } else {
        t
    }
}
