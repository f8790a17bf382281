//! C13: same shape as `attn.rs`, but the cache stores `<Dispatch as AutodiffBackend>::inner(k)`.
//@ clean

use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

pub struct SafeAttn {
    wk: DispatchTensor,
    k_cache: Option<DispatchTensor>,
    scale: f32,
}

impl SafeAttn {
    pub fn new(base: DispatchDevice, wk: TensorData, scale: f32) -> Self {
        let dev = DispatchDevice::autodiff(base);
        Self { wk: Dispatch::float_from_data(wk, &dev), k_cache: None, scale }
    }

    pub fn train_forward(&mut self, x: DispatchTensor) -> DispatchTensor {
        let k = Dispatch::float_matmul(x, self.wk.clone());
        let k = Dispatch::float_mul_scalar(k, self.scale.into());
        self.k_cache = Some(<Dispatch as AutodiffBackend>::inner(k.clone()));
        k
    }

    pub fn infer(&self, q_w: DispatchTensor) -> DispatchTensor {
        let k = self.k_cache.clone().expect("run train_forward first");
        dispatch::q_matmul(k, q_w, Ctx::Disabled)
    }
}
