// Clean: wrapping is guarded by `Dispatch::ad_enabled` / `Device::is_autodiff`, so an autodiff device is returned unchanged
//@ clean
use burn::backend::{Backend, Dispatch, DispatchDevice};
use burn::tensor::Device;

fn ensure_autodiff(d: DispatchDevice) -> DispatchDevice {
    if Dispatch::ad_enabled(&d) {
        d
    } else {
        DispatchDevice::autodiff(d)
    }
}

fn ensure_autodiff_hl(device: Device) -> Device {
    if device.is_autodiff() { device } else { device.autodiff() }
}

pub fn devices() -> (DispatchDevice, Device) {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let same = ensure_autodiff(ad);
    let hl = ensure_autodiff_hl(Device::default().autodiff());
    (same, hl)
}
