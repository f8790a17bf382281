// A crate that turns burn's `autodiff` feature on (`//@ build: on`): writing `Enabled(..)` is allowed here,
// and it is paired with an input created on an autodiff device, so nothing panics.
//@ build: on
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn train_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Cuda(Default::default()));
    let x = Dispatch::float_from_data(data, &device);
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled))
}
