// Names: method resolution by receiver type where the type is stated less directly: `Box<T>`, `Arc<T>`,
// `Rc<T>`, `&mut T`, a helper's return type (`-> TrainCache`), a unit-struct value (`TrainCache`) and a struct
// literal (`EvalCache { .. }`). `TrainCache::fetch` gives an autodiff tensor, `EvalCache::fetch` a plain one;
// `TrainCache::mode()` is Enabled, `EvalCache::mode()` Disabled. Each call pairs train's tensor with eval's mode.
use std::rc::Rc;
use std::sync::Arc;

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct TrainCache;

impl TrainCache {
    pub fn fetch(&self, data: TensorData) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        Dispatch::float_from_data(data, &dev)
    }

    pub fn mode(&self) -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }
}

pub struct EvalCache {
    pub scale: f32,
}

impl EvalCache {
    pub fn fetch(&self, data: TensorData) -> DispatchTensor {
        Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()))
    }

    pub fn mode(&self) -> Ctx {
        Ctx::Disabled
    }
}

fn open_train() -> TrainCache {
    TrainCache
}

pub fn boxed(train: Box<TrainCache>, eval: Arc<EvalCache>, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = train.fetch(data);
    dispatch::q_matmul(x, q, eval.mode()) //~ BD001
}

pub fn shared(train: Rc<TrainCache>, eval: &mut EvalCache, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = train.fetch(data);
    dispatch::q_matmul(x, q, eval.mode()) //~ BD001
}

pub fn from_return_type(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let cache = open_train();
    let eval = EvalCache { scale: 1.0 };
    let x = cache.fetch(data);
    dispatch::q_matmul(x, q, eval.mode()) //~ BD001
}

pub fn unit_value(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = TrainCache.fetch(data);
    let ctx = EvalCache { scale: 0.5 }.mode();
    dispatch::q_matmul(x, q, ctx) //~ BD001
}
