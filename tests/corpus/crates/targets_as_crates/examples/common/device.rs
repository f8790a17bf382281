//! The shared examples' device: the library's autodiff one.
//@ clean

use burn::backend::DispatchDevice;

pub fn training() -> DispatchDevice {
    trainkit::devices::tracked()
}
