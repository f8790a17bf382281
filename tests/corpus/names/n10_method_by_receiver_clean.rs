// Names (clean twin of n10): the same two loaders with the same method names, each tensor paired with its
// own loader's context (train/Enabled, eval/Disabled); receiver types from a constructor, a typed parameter, an
// annotated `let` and a declared field type. A linter that merges same-named methods sees autodiff-or-plain
// tensors with Enabled-or-Disabled contexts here.
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct TrainLoader {
    device: DispatchDevice,
}

impl TrainLoader {
    pub fn new() -> Self {
        Self { device: DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())) }
    }

    pub fn load(&self, data: TensorData) -> DispatchTensor {
        let t = Dispatch::float_from_data(data, &self.device);
        Dispatch::float_set_require_grad(t, true)
    }

    pub fn context(&self) -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }
}

pub struct EvalLoader {
    device: DispatchDevice,
}

impl EvalLoader {
    pub fn new() -> Self {
        Self { device: DispatchDevice::Flex(Default::default()) }
    }

    pub fn load(&self, data: TensorData) -> DispatchTensor {
        Dispatch::float_from_data(data, &self.device)
    }

    pub fn context(&self) -> Ctx {
        Ctx::Disabled
    }
}

pub fn by_constructor(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = TrainLoader::new().load(data);
    dispatch::q_matmul(x, q, TrainLoader::new().context())
}

pub fn by_parameter(_train: &TrainLoader, eval: &EvalLoader, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = eval.load(data);
    dispatch::q_matmul(x, q, eval.context())
}

pub fn by_annotated_let(mut pool: Vec<TrainLoader>, spare: Vec<EvalLoader>, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let loader: TrainLoader = pool.pop().expect("a train loader");
    let _eval: EvalLoader = spare.into_iter().next().expect("an eval loader");
    let x = loader.load(data);
    dispatch::q_matmul(x, q, loader.context())
}

pub struct Pipeline {
    loader: TrainLoader,
    eval: EvalLoader,
    q_w: DispatchTensor,
}

impl Pipeline {
    pub fn step(&self, data: TensorData) -> DispatchTensor {
        let x = self.loader.load(data);
        dispatch::q_matmul(x, self.q_w.clone(), self.loader.context())
    }
}
