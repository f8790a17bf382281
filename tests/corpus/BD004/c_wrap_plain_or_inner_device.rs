// Clean: wrapping a plain device, or re-wrapping an autodiff device's `inner()` to change the strategy
//@ clean
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy as Gcs};
use burn::tensor::TensorData;

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn train_device() -> DispatchDevice {
    DispatchDevice::autodiff(plain_device())
}

pub fn balanced(data: TensorData) -> DispatchTensor {
    let device = train_device();
    let device = DispatchDevice::autodiff_with_gradient_checkpointing(device.inner(), Gcs::Balanced);
    Dispatch::float_from_data(data, &device)
}

pub fn eval_then_train(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let eval = ad.clone().inner();
    let again = DispatchDevice::autodiff(eval);
    Dispatch::float_from_data(data, &again)
}
