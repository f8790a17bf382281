// The fixed twin of a config default in a crate without burn's `autodiff` feature (`//@ build: off`): the
// default context is `Ctx::default()`, which is `Disabled`, so heads built from the default config run.
//@ build: off
//@ clean
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};

pub struct HeadConfig {
    pub ctx: Ctx,
    pub scale: f32,
}

impl Default for HeadConfig {
    fn default() -> Self {
        Self { ctx: Ctx::default(), scale: 1.0 }
    }
}

pub fn head(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let config = HeadConfig::default();
    dispatch::q_matmul(x, q, config.ctx)
}
