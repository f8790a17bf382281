// C12/C17 through a helper: `ctx_of(t, s)` is `if is_autodiff(t) { Enabled(s) } else { Disabled }`, and a method
// form on a config struct; both are applied to the tensor that goes into the sink (also after shadowing)
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

fn ctx_of(t: &DispatchTensor, strategy: Gcs) -> Ctx {
    if is_autodiff(t) {
        Ctx::Enabled(strategy)
    } else {
        Ctx::Disabled
    }
}

pub struct RunCfg {
    pub strategy: Gcs,
}

impl RunCfg {
    fn ctx(&self, t: &DispatchTensor) -> Ctx {
        ctx_of(t, self.strategy)
    }
}

pub fn head(cfg: &RunCfg, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    let ctx = ctx_of(&x, Gcs::Disabled);
    let y = dispatch::q_matmul(x, q.clone(), ctx);
    let y = Dispatch::float_exp(y);
    let ctx = cfg.ctx(&y);
    dispatch::q_matmul(y, q, ctx)
}
