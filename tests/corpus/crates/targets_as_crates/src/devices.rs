//! The library's devices.
//@ clean

use burn::backend::DispatchDevice;

/// The training device: Flex wrapped in autodiff.
pub fn tracked() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

/// The inference device.
pub fn plain() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}
