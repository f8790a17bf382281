// B3 (checkpointing era): `fn eval_ckp() -> Option<Gcs> { None }` supplies the checkpointing field of an autodiff kind
//@ era: checkpointing
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn eval_ckp() -> Option<Gcs> {
    None
}

fn train_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn eval_copy(data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &train_device());
    let x = Dispatch::float_mul_scalar(x, 2.0f32.into());
    DispatchTensor { kind: x.kind, checkpointing: eval_ckp() } //~ BD001
}
