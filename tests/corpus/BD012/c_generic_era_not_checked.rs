// Clean (generic era, burn <= 0.21): no `Device::gradient_checkpointing` rule applies before the dispatch API
//@ era: generic
//@ clean
use burn::tensor::Device;

pub fn train_device() -> Device {
    Device::cuda(0).gradient_checkpointing().autodiff()
}
