// C7: two cfg-gated definitions of `ctx_of`; with the `autodiff` feature it derives the context from the tensor
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[cfg(feature = "autodiff")]
fn ctx_of(t: &DispatchTensor) -> Ctx {
    if matches!(t.kind, burn::backend::DispatchTensorKind::Autodiff(_)) {
        Ctx::Enabled(Gcs::Disabled)
    } else {
        Ctx::Disabled
    }
}

#[cfg(not(feature = "autodiff"))]
fn ctx_of(_t: &DispatchTensor) -> Ctx {
    Ctx::Disabled
}

#[cfg(feature = "autodiff")]
pub fn head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    let ctx = ctx_of(&x);
    dispatch::q_matmul(x, q, ctx)
}
