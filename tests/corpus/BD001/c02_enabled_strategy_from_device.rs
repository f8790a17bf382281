// C2: an autodiff input with an `Enabled` context whose strategy matches the device
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn balanced_head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(plain_device(), Gcs::Balanced);
    let x = Dispatch::float_from_data(data, &dev);
    dispatch::q_matmul(x, q, DispatchAutodiffContext::Enabled(Gcs::Balanced))
}

pub fn tracked_head(data: TensorData, q: DispatchTensor, strategy: Gcs) -> DispatchTensor {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(plain_device(), strategy);
    let x = Dispatch::float_from_data(data, &dev);
    let x = Dispatch::float_detach(x);
    dispatch::q_matmul(x, q, DispatchAutodiffContext::Enabled(strategy))
}
