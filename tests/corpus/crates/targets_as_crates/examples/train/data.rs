//! The training example's data, on the library's autodiff device.
//@ clean

use burn::backend::DispatchDevice;
use burn::tensor::TensorData;

pub fn rows() -> TensorData {
    TensorData::from([1.0f32, 2.0])
}

pub fn device() -> DispatchDevice {
    trainkit::devices::tracked()
}
