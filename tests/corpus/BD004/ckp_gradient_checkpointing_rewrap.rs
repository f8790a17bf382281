// BD004 (checkpointing era): turning on balanced checkpointing by re-wrapping an autodiff device instead of its `inner()`
//@ era: checkpointing
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct TrainConfig {
    pub balanced: bool,
}

pub fn activations(cfg: &TrainConfig, data: TensorData) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let device = if cfg.balanced {
        DispatchDevice::autodiff_with_gradient_checkpointing(device, Gcs::Balanced) //~ BD004
    } else {
        device
    };
    Dispatch::float_from_data(data, &device)
}
