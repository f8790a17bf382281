// Names (clean twin of n11): the same `Box`/`Arc`/`Rc`/`&mut` receivers, return type, unit-struct value and
// struct literal, with each tensor paired with its own cache's mode (train/Enabled, eval/Disabled).
//@ clean
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

pub fn boxed(train: Box<TrainCache>, _eval: Arc<EvalCache>, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = train.fetch(data);
    dispatch::q_matmul(x, q, train.mode())
}

pub fn shared(_train: Rc<TrainCache>, eval: &mut EvalCache, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = eval.fetch(data);
    dispatch::q_matmul(x, q, eval.mode())
}

pub fn from_return_type(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let cache = open_train();
    let eval = EvalCache { scale: 1.0 };
    let x = eval.fetch(data);
    let _ = cache.mode();
    dispatch::q_matmul(x, q, eval.mode())
}

pub fn unit_value(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = TrainCache.fetch(data);
    let ctx = TrainCache.mode();
    dispatch::q_matmul(x, q, ctx)
}
