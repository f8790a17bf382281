// A hard-coded default: `HeadConfig::default()` turns tracking on with `Enabled(Gcs::Balanced)`, in a crate whose
// burn is built without `autodiff` (`//@ build: off`). Any head built from the default config panics in
// `q_matmul` with "autodiff context requires the `autodiff` feature".
//@ build: off
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs};

pub struct HeadConfig {
    pub ctx: Ctx,
    pub scale: f32,
}

impl Default for HeadConfig {
    fn default() -> Self {
        Self { ctx: Ctx::Enabled(Gcs::Balanced), scale: 1.0 } //~ BD003
    }
}

pub fn head(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let config = HeadConfig::default();
    dispatch::q_matmul(x, q, config.ctx)
}
