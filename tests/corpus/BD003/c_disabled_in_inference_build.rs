// The fixed inference build: under `#[cfg(not(feature = "autodiff"))]` the step passes `Ctx::Disabled`, the
// only context a build without autodiff can run, and `passthrough` reuses the tensor's own `autodiff` field,
// which burn itself sets to `Disabled` in such a build.
//@ build: optional
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

#[cfg(not(feature = "autodiff"))]
pub fn train_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    dispatch::q_matmul(x, q, Ctx::Disabled)
}

#[cfg(not(feature = "autodiff"))]
pub fn passthrough(x: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx)
}
