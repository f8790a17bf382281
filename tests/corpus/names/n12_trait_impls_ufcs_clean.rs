// Names (clean twin of n12): the same trait and impls, but `Probe::load` strips autodiff (`inner`), so the
// default `context()` (Disabled) fits it; the other calls pair each tensor with its own type's context, through
// trait impls, `<T as Loader>::m(..)` and `Loader::m(&x)`.
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
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
        <Dispatch as AutodiffBackend>::inner(t)
    }
}

pub fn default_method(probe: &Probe, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = probe.load(data);
    dispatch::q_matmul(x, q, probe.context())
}

pub fn two_impls(train: &Train, _eval: &Eval, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = train.load(data);
    dispatch::q_matmul(x, q, train.context())
}

pub fn ufcs_qualified(train: Train, _eval: Eval, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = <Train as Loader>::load(&train, data);
    dispatch::q_matmul(x, q, <Train as Loader>::context(&train))
}

pub fn ufcs_trait_path(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let _train = Train;
    let eval = Eval;
    let x = Loader::load(&eval, data);
    let ctx = Loader::context(&eval);
    dispatch::q_matmul(x, q, ctx)
}
