// Clean (checkpointing era): each device is wrapped exactly once; the strategy is chosen at wrap time
//@ era: checkpointing
//@ clean
use burn::backend::{DispatchDevice, GradientCheckpointingStrategy as Gcs};

pub struct TrainConfig {
    pub balanced: bool,
}

pub fn train_device(cfg: &TrainConfig) -> DispatchDevice {
    let base = DispatchDevice::Flex(Default::default());
    if cfg.balanced {
        DispatchDevice::autodiff_with_gradient_checkpointing(base, Gcs::Balanced)
    } else {
        DispatchDevice::autodiff(base)
    }
}

pub fn eval_device(cfg: &TrainConfig) -> DispatchDevice {
    train_device(cfg).inner()
}
