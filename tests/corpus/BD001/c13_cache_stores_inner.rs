// C13: the key cache stores the inner tensor, so reading it back into a Disabled sink is fine (field and local forms)
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor,
};

pub struct Attn {
    wk: DispatchTensor,
    k_cache: Option<DispatchTensor>,
}

impl Attn {
    pub fn train_forward(&mut self, x: DispatchTensor) -> DispatchTensor {
        let k = Dispatch::float_matmul(x, self.wk.clone());
        self.k_cache = Some(<Dispatch as AutodiffBackend>::inner(k.clone()));
        k
    }

    pub fn infer(&self, q_w: DispatchTensor) -> DispatchTensor {
        let k = self.k_cache.clone().expect("warm cache");
        dispatch::q_matmul(k, q_w, Ctx::Disabled)
    }
}

pub fn one_shot(k_ad: DispatchTensor, q_w: DispatchTensor) -> DispatchTensor {
    let cache = Some(<Dispatch as AutodiffBackend>::inner(k_ad));
    dispatch::q_matmul(cache.unwrap(), q_w, Ctx::Disabled)
}
