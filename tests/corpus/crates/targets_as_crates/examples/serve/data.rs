//! The serving example's data, on the plain device.
//@ clean

use burn::backend::DispatchDevice;
use burn::tensor::TensorData;

pub fn rows() -> TensorData {
    TensorData::from([3.0f32])
}

pub fn device() -> DispatchDevice {
    trainkit::devices::plain()
}
