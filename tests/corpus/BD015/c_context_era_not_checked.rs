// Clean twin on burn >= 0.22.0-pre.4: the field is `autodiff: DispatchAutodiffContext`, consistent
// with the kind by construction; no `checkpointing` field test is checked there.
//@ era: context
//@ clean
use burn::backend::{AutodiffBackend, Dispatch, DispatchTensor};

pub fn untracked(t: DispatchTensor) -> DispatchTensor {
    if t.checkpointing.is_some() {
        <Dispatch as AutodiffBackend>::inner(t)
    } else {
        t
    }
}
