//! B6 across files: autodiff activations passed to `ops::project` are reported at the call here.

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

use crate::ops;
use crate::ops::project_derived;

pub struct Model {
    pub q_w: DispatchTensor,
    pub sample: TensorData,
}

pub fn train_step(model: &Model, base: &DispatchDevice) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(base.clone());
    let x_ad = Dispatch::float_from_data(model.sample.clone(), &dev);
    ops::project(x_ad, &model.q_w) //~ BD001
}

pub fn scaled_step(model: &Model, base: &DispatchDevice) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(base.clone());
    let x_ad = Dispatch::float_from_data(model.sample.clone(), &dev);
    crate::ops::project(Dispatch::float_exp(x_ad), &model.q_w) //~ BD001
}

pub fn eval_step(model: &Model) -> DispatchTensor {
    let x = Dispatch::float_from_data(model.sample.clone(), &DispatchDevice::Flex(Default::default()));
    ops::project(x, &model.q_w)
}

pub fn derived_step(model: &Model, base: &DispatchDevice) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(base.clone());
    let x_ad = Dispatch::float_from_data(model.sample.clone(), &dev);
    project_derived(x_ad, &model.q_w)
}
