// Names: two types with the same method names. `TrainLoader::load` returns an autodiff tensor and its
// `context()` is Enabled; `EvalLoader::load` returns a plain tensor and its `context()` is Disabled. Each call
// mixes the train loader's tensor with the eval loader's context; the receiver type is known from a
// constructor (`TrainLoader::new().load(..)`), a typed parameter, an annotated `let`, or a declared field type.
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
    dispatch::q_matmul(x, q, EvalLoader::new().context()) //~ BD001
}

pub fn by_parameter(train: &TrainLoader, eval: &EvalLoader, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = train.load(data);
    dispatch::q_matmul(x, q, eval.context()) //~ BD001
}

pub fn by_annotated_let(mut pool: Vec<TrainLoader>, spare: Vec<EvalLoader>, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let loader: TrainLoader = pool.pop().expect("a train loader");
    let eval: EvalLoader = spare.into_iter().next().expect("an eval loader");
    let x = loader.load(data);
    dispatch::q_matmul(x, q, eval.context()) //~ BD001
}

pub struct Pipeline {
    loader: TrainLoader,
    eval: EvalLoader,
    q_w: DispatchTensor,
}

impl Pipeline {
    pub fn step(&self, data: TensorData) -> DispatchTensor {
        let x = self.loader.load(data);
        dispatch::q_matmul(x, self.q_w.clone(), self.eval.context()) //~ BD001
    }
}
