// Clean: `.autodiff()` before `.gradient_checkpointing()`, a helper's autodiff device, and a device of unknown kind
//@ era: checkpointing
//@ clean
use burn::tensor::Device;

fn train_device() -> Device {
    Device::cuda(0).autodiff()
}

pub fn devices(unknown: Device) -> (Device, Device, Device) {
    let a = Device::cuda(0).autodiff().gradient_checkpointing();
    let b = train_device().gradient_checkpointing();
    (a, b, unknown.gradient_checkpointing())
}
