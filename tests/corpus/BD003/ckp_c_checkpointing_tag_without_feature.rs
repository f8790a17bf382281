// Checkpointing era (burn main before #5520), in a crate without burn's `autodiff` feature (`//@ build: off`):
// `checkpointing: Some(strategy)` is only a tag on the tensor there and does not panic without the feature, so
// BD003 (a context-era rule) does not apply.
//@ era: checkpointing
//@ build: off
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};

pub fn tag(t: DispatchTensor) -> DispatchTensor {
    let tagged = DispatchTensor { kind: t.kind, checkpointing: Some(Gcs::Balanced) };
    Dispatch::float_exp(tagged)
}
