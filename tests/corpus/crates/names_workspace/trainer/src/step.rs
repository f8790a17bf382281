//! Helpers, their prelude and their constants live in the other member (`render-core`, `render_core` in
//! paths) and are reached by `use render_core::prelude::*`, `render_core::ops::f()` and
//! `render_core::consts::C`. The inline `local` module defines the same names the other way round; nothing
//! below reaches it.

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

use render_core::prelude::*;

mod local {
    use burn::backend::{
        DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy as Gcs,
    };

    pub const HEAD_CTX: Ctx = Ctx::Enabled(Gcs::Disabled);

    pub fn input_device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    pub fn head_ctx() -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }

    pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        let ctx = x.autodiff;
        dispatch::q_matmul(x, w.clone(), ctx)
    }
}

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn train_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &input_device());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}

pub fn const_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, HEAD_CTX) //~ BD001
}

pub fn projected_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_exp(Dispatch::float_from_data(data, &input_device()));
    project(x, &q) //~ BD001
}

pub fn by_path(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, render_core::ops::head_ctx()) //~ BD001
}

pub fn by_device_path(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &render_core::ops::input_device());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}

pub fn by_const_path(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let y = render_core::ops::project(x.clone(), &q); //~ BD001
    let _ = dispatch::q_matmul(x, q, render_core::consts::FROZEN_CTX); //~ BD001
    y
}

pub fn eval_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &eval_device());
    dispatch::q_matmul(x, q, PLAIN_CTX)
}

pub fn tracked_step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, TRACKED_CTX)
}
