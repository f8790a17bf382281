// B18 through helpers: the context is derived from a DIFFERENT, plain tensor (`ctx_for(&bias)`, a kind guard on
// `mask`) and then used with the autodiff `x`
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

fn ctx_for(t: &DispatchTensor) -> Ctx {
    t.autodiff
}

pub fn biased(data: TensorData, bias: TensorData, q: DispatchTensor) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let bias = Dispatch::float_from_data(bias, &flex);
    let x = Dispatch::float_from_data(data, &DispatchDevice::autodiff(flex));
    let ctx = ctx_for(&bias);
    let y = dispatch::q_matmul(x, q, ctx); //~ BD001
    Dispatch::float_add(y, bias)
}

pub fn masked(data: TensorData, mask: TensorData, q: DispatchTensor) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let mask = Dispatch::float_from_data(mask, &flex);
    let x = Dispatch::float_from_data(data, &DispatchDevice::autodiff(flex));
    let ctx = if is_autodiff(&mask) { Ctx::Enabled(Gcs::Disabled) } else { Ctx::Disabled };
    let y = dispatch::q_matmul(x, q, ctx); //~ BD001
    Dispatch::float_mul(y, mask)
}
