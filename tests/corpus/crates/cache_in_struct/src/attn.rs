//! B10: `train_forward` caches the autodiff key; `infer` runs it through a Disabled sink.

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Attn {
    wk: DispatchTensor,
    k_cache: Option<DispatchTensor>,
    scale: f32,
}

impl Attn {
    pub fn new(base: DispatchDevice, wk: TensorData, scale: f32) -> Self {
        let dev = DispatchDevice::autodiff(base);
        Self { wk: Dispatch::float_from_data(wk, &dev), k_cache: None, scale }
    }

    pub fn train_forward(&mut self, x: DispatchTensor) -> DispatchTensor {
        let k = Dispatch::float_matmul(x, self.wk.clone());
        let k = Dispatch::float_mul_scalar(k, self.scale.into());
        self.k_cache = Some(k.clone());
        k
    }

    pub fn infer(&self, q_w: DispatchTensor) -> DispatchTensor {
        let k = self.k_cache.clone().expect("run train_forward first");
        dispatch::q_matmul(k, q_w, Ctx::Disabled) //~ BD001
    }
}
