// C4: the seed's guard predicate asserted before the sink; the context is derived from the tensor or is Enabled
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy,
};
use burn::tensor::TensorData;

fn autodiff_tensor_in_enabled_ctx(t: &DispatchTensor, ctx: &DispatchAutodiffContext) -> bool {
    !matches!(t.kind, DispatchTensorKind::Autodiff(_))
        || matches!(ctx, DispatchAutodiffContext::Enabled(_))
}

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn checked(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = if is_autodiff(&x) {
        DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled)
    } else {
        DispatchAutodiffContext::Disabled
    };
    debug_assert!(autodiff_tensor_in_enabled_ctx(&x, &ctx));
    dispatch::q_matmul(x, q, ctx)
}

pub fn checked_enabled(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled);
    assert!(autodiff_tensor_in_enabled_ctx(&x, &ctx), "context must match the input");
    dispatch::q_matmul(x, q, ctx)
}
