// H6: `Device::autodiff()` applied twice, directly in a builder chain and through a same-file helper that returns an autodiff device
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

fn train_device() -> Device {
    Device::default().autodiff()
}

pub fn params() -> Tensor<2> {
    let device = Device::default()
        .autodiff()
        .autodiff(); //~ BD004
    Tensor::<2>::random([8, 8], Distribution::Default, &device)
}

pub fn more_params() -> Tensor<1> {
    let dev = train_device();
    let dev = dev.autodiff(); //~ BD004
    Tensor::<1>::zeros([8], &dev)
}

pub fn one_liner() -> Device {
    Device::default().autodiff().autodiff() //~ BD004
}
