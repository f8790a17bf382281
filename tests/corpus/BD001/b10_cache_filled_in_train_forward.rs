// B10: `train_forward` caches an autodiff key in `self.k_cache`; `infer` reads it back with `expect` into a Disabled sink
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Attn {
    wk: DispatchTensor,
    k_cache: Option<DispatchTensor>,
}

impl Attn {
    pub fn new(base: DispatchDevice, wk: TensorData) -> Self {
        let dev = DispatchDevice::autodiff(base);
        Self { wk: Dispatch::float_from_data(wk, &dev), k_cache: None }
    }

    pub fn train_forward(&mut self, x: DispatchTensor) -> DispatchTensor {
        let k = Dispatch::float_matmul(x, self.wk.clone()); // autodiff: `wk` is a tracked param
        self.k_cache = Some(k.clone());
        k
    }

    pub fn infer(&self, q_w: DispatchTensor) -> DispatchTensor {
        let k = self.k_cache.clone().expect("warm cache");
        dispatch::q_matmul(k, q_w, Ctx::Disabled) //~ BD001
    }
}
