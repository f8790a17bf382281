// Names: a trait implemented by two types, a trait default method, and UFCS. `Loader::context` has a default
// body (Disabled); `Train` overrides it (Enabled), `Eval` and `Probe` keep the default. `Train::load` and
// `Probe::load` give autodiff tensors, `Eval::load` a plain one. Calls resolve by receiver type (trait impl of
// that type, then the trait's default method), through `<T as Loader>::m(..)` and through `Loader::m(&x)`.
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub trait Loader {
    fn load(&self, data: TensorData) -> DispatchTensor;

    fn context(&self) -> Ctx {
        Ctx::Disabled
    }
}

pub struct Train;
pub struct Eval;
pub struct Probe;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

impl Loader for Train {
    fn load(&self, data: TensorData) -> DispatchTensor {
        Dispatch::float_from_data(data, &ad_device())
    }

    fn context(&self) -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }
}

impl Loader for Eval {
    fn load(&self, data: TensorData) -> DispatchTensor {
        Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()))
    }
}

impl Loader for Probe {
    fn load(&self, data: TensorData) -> DispatchTensor {
        let t = Dispatch::float_from_data(data, &ad_device());
        Dispatch::float_set_require_grad(t, true)
    }
}

pub fn default_method(probe: &Probe, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = probe.load(data);
    dispatch::q_matmul(x, q, probe.context()) //~ BD001
}

pub fn two_impls(train: &Train, eval: &Eval, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = train.load(data);
    dispatch::q_matmul(x, q, eval.context()) //~ BD001
}

pub fn ufcs_qualified(train: Train, eval: Eval, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = <Train as Loader>::load(&train, data);
    dispatch::q_matmul(x, q, <Eval as Loader>::context(&eval)) //~ BD001
}

pub fn ufcs_trait_path(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let train = Train;
    let eval = Eval;
    let x = Loader::load(&train, data);
    let ctx = Loader::context(&eval);
    dispatch::q_matmul(x, q, ctx) //~ BD001
}
