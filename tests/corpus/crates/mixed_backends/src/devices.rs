//! Device helpers: the CPU training device (Flex + autodiff) and the GPU device (burn 0.22 groups the CubeCL
//! runtimes under `DispatchDevice::Cube`).
//@ clean

use burn::backend::DispatchDevice;

pub fn cpu_train_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn gpu_device() -> DispatchDevice {
    DispatchDevice::Cube(Default::default())
}
