// Context era: the check stays in `Device::gradient_checkpointing` (its message changed)
//@ era: context
use burn::tensor::Device;

pub fn train_device() -> Device {
    Device::flex()
        .gradient_checkpointing()
        .autodiff() //~^ BD012
}
