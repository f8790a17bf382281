//! Helpers the integration tests share through `mod common;`.
//@ clean

use burn::backend::DispatchDevice;

pub fn device() -> DispatchDevice {
    trainkit::devices::tracked()
}
