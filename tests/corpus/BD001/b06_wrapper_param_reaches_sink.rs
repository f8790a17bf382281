// B6: a same-file wrapper sends its parameter to the sink with `Disabled`; reported where an autodiff tensor is passed in
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Model {
    pub q_w: DispatchTensor,
    pub sample: TensorData,
}

fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
}

pub fn train_step(model: &Model, base: &DispatchDevice) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(base.clone());
    let x = Dispatch::float_from_data(model.sample.clone(), &dev);
    project(x, &model.q_w) //~ BD001
}

pub fn scaled_step(model: &Model, base: &DispatchDevice) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(base.clone());
    let x = Dispatch::float_from_data(model.sample.clone(), &dev);
    let logits = project( //~ BD001
        Dispatch::float_mul_scalar(x, 2.0f32.into()),
        &model.q_w,
    );
    Dispatch::float_exp(logits)
}
