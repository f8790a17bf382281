// B18: the context is derived from a plain `x`, then `x` is shadowed by an autodiff activation; the stale context is Disabled
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

pub fn residual(input: TensorData, act: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(input, &DispatchDevice::Flex(Default::default()));
    let ctx = if is_autodiff(&x) { Ctx::Enabled(Gcs::Disabled) } else { Ctx::Disabled };

    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let cached_activation_ad = Dispatch::float_from_data(act, &ad);
    let x = cached_activation_ad.clone();
    dispatch::q_matmul(x, q, ctx) //~ BD001
}
