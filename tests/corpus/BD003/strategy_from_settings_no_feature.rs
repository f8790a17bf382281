// The checkpointing strategy comes from the user's settings, but whatever it is, `Enabled(strategy)` needs an
// autodiff backend that a build without burn's `autodiff` feature (`//@ build: off`) does not have. Each batch
// of the closure panics in `q_matmul` with "autodiff context requires the `autodiff` feature".
//@ build: off
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs};

pub struct Settings {
    pub checkpoint_strategy: Gcs,
}

pub fn run(settings: &Settings, xs: Vec<DispatchTensor>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let strategy = settings.checkpoint_strategy;
    xs.into_iter()
        .map(|x| dispatch::q_matmul(x, q.clone(), Ctx::Enabled(strategy))) //~ BD003
        .collect()
}
