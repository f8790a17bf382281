//! B1/B3 across modules: the autodiff device and the Disabled context come from `crate::devices`, reached by a
//! `use` import, a `super::` path and a `crate::` path.

use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchTensor};
use burn::tensor::TensorData;

use crate::devices::{ad_device, eval_ctx};

pub struct Model {
    q_w: DispatchTensor,
}

impl Model {
    pub fn new(q_w: DispatchTensor) -> Self {
        Self { q_w }
    }

    /// Imported helpers: autodiff input, Disabled context.
    pub fn forward_train(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &ad_device());
        dispatch::q_matmul(x, self.q_w.clone(), eval_ctx()) //~ BD001
    }

    /// `super::` path to the device helper, literal Disabled.
    pub fn forward_super(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &super::devices::ad_device());
        dispatch::q_matmul(x, self.q_w.clone(), DispatchAutodiffContext::Disabled) //~ BD001
    }

    /// `crate::` path to the context helper, after a float op.
    pub fn forward_scaled(&self, data: TensorData) -> DispatchTensor {
        let dev = ad_device();
        let x = Dispatch::float_mul_scalar(Dispatch::float_from_data(data, &dev), 0.5f32.into());
        dispatch::q_matmul(x, self.q_w.clone(), crate::devices::eval_ctx()) //~ BD001
    }

    /// Plain device from the same module: Disabled is right.
    pub fn evaluate(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &super::devices::plain_device());
        dispatch::q_matmul(x, self.q_w.clone(), crate::devices::eval_ctx())
    }
}
