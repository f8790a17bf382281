// Negated guards with early return: plain inputs leave early with Disabled; the rest use Enabled or the
// tensor's own context (`is_autodiff`, `x.autodiff == Disabled`, `Dispatch::ad_enabled`)
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

pub fn head(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    if !is_autodiff(&x) {
        return dispatch::q_matmul(x, q, Ctx::Disabled);
    }
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled))
}

pub fn head_by_field(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    if x.autodiff == Ctx::Disabled {
        return dispatch::q_matmul(x, q, Ctx::Disabled);
    }
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx)
}

pub fn head_on(dev: DispatchDevice, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &dev);
    if !Dispatch::ad_enabled(&dev) {
        return dispatch::q_matmul(x, q, Ctx::default());
    }
    dispatch::q_matmul(x, q, Ctx::Enabled(dev_strategy(&dev)))
}

fn dev_strategy(_dev: &DispatchDevice) -> Gcs {
    Gcs::Disabled
}
