// Clean (context era): `Device::autodiff()` is idempotent from 0.22.0-pre.4 on, so `x_ad.device().autodiff()`
// and `.autodiff().autodiff()` are fine; only `DispatchDevice::autodiff` of an autodiff device nests (h5)
//@ era: context
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn mirror(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random(shape, Distribution::Default, &device);
    let mirror_device = x_ad.device().autodiff();
    Tensor::<2>::zeros(shape, &mirror_device)
}

pub fn twice() -> Device {
    Device::default().autodiff().autodiff()
}
