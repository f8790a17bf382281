//! Only compiled with `--features autodiff` (`#[cfg(feature = "autodiff")] pub mod train;`), so the Enabled
//! contexts here are never built without the feature; each matches its autodiff input.
//@ clean

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn train_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        Gcs::Balanced,
    );
    let x = Dispatch::float_from_data(data, &dev);
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Balanced))
}
