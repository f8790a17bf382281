// BD004 interprocedural (B6-style): a same-file wrapper calls `DispatchDevice::autodiff(d)` on its parameter; the caller passes an autodiff device
use burn::backend::{DispatchDevice, GradientCheckpointingStrategy};

fn with_autodiff(d: DispatchDevice) -> DispatchDevice {
    DispatchDevice::autodiff(d)
}

fn with_checkpointing(d: DispatchDevice) -> DispatchDevice {
    DispatchDevice::autodiff_with_gradient_checkpointing(d, GradientCheckpointingStrategy::Balanced)
}

pub fn devices() -> (DispatchDevice, DispatchDevice) {
    let flex = DispatchDevice::Flex(Default::default());
    let train = with_autodiff(flex.clone());
    let balanced = with_checkpointing(train.clone()); //~ BD004
    let nested = with_autodiff(balanced.clone()); //~ BD004
    (train, nested)
}
