// A quantized head stores the context it runs with in a field. The constructor compiled without the
// `autodiff` feature sets that field to `Enabled(..)`, and `forward` passes it to `q_matmul`, which panics in
// that build with "autodiff context requires the `autodiff` feature".
//@ build: optional
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs};

pub struct QuantHead {
    q_weight: DispatchTensor,
    ctx: Ctx,
}

impl QuantHead {
    #[cfg(not(feature = "autodiff"))]
    pub fn new(q_weight: DispatchTensor) -> Self {
        Self { q_weight, ctx: Ctx::Enabled(Gcs::Disabled) } //~ BD003
    }

    pub fn forward(&self, x: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, self.q_weight.clone(), self.ctx)
    }
}
