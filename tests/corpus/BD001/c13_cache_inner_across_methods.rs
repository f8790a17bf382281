// C13 across methods: `wk` is a tracked param (autodiff device in `new`), but `train_forward` caches the INNER key,
// so `infer` may use a Disabled context; the tracked copy in `k_graph` is used with its own context
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Attn {
    wk: DispatchTensor,
    k_cache: Option<DispatchTensor>,
    k_graph: Option<DispatchTensor>,
}

impl Attn {
    pub fn new(base: DispatchDevice, wk: TensorData) -> Self {
        let dev = DispatchDevice::autodiff(base);
        Self { wk: Dispatch::float_from_data(wk, &dev), k_cache: None, k_graph: None }
    }

    pub fn train_forward(&mut self, x: DispatchTensor) -> DispatchTensor {
        let k = Dispatch::float_matmul(x, self.wk.clone());
        self.k_cache = Some(<Dispatch as AutodiffBackend>::inner(k.clone()));
        self.k_graph = Some(k.clone());
        k
    }

    pub fn infer(&self, q_w: DispatchTensor) -> DispatchTensor {
        let k = self.k_cache.clone().expect("warm cache");
        dispatch::q_matmul(k, q_w, Ctx::Disabled)
    }

    pub fn replay(&self, q_w: DispatchTensor) -> DispatchTensor {
        let k = self.k_graph.clone().expect("warm graph");
        let ctx = k.autodiff;
        dispatch::q_matmul(k, q_w, ctx)
    }
}
