// Near miss: the nested wrap only appears in a comment, a string, a `#[cfg(any())]` item and an `if false` block
//@ clean
use burn::backend::DispatchDevice;
use burn::tensor::Device;

const HINT: &str = "DispatchDevice::autodiff(ad_device()) panics: wrap the inner device";

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn train_device() -> DispatchDevice {
    // DispatchDevice::autodiff(ad_device())
    if false {
        let _ = Device::default().autodiff().autodiff();
    }
    let _ = HINT;
    ad_device()
}

#[cfg(any())]
fn nested() -> DispatchDevice {
    DispatchDevice::autodiff(ad_device())
}
