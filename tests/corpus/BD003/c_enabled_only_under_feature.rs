// One `train_step` per build: the `#[cfg(feature = "autodiff")]` one builds its input on an autodiff device and
// passes `Enabled(..)`, the `not(autodiff)` one passes `Disabled`. Each build only ever names the context it
// can run, so neither panics.
//@ build: optional
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
#[cfg(feature = "autodiff")]
use burn::backend::GradientCheckpointingStrategy as Gcs;
use burn::tensor::TensorData;

#[cfg(not(feature = "autodiff"))]
pub fn train_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    dispatch::q_matmul(x, q, Ctx::Disabled)
}

#[cfg(feature = "autodiff")]
pub fn train_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &device);
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled))
}
