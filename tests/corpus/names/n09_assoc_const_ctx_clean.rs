// Names (clean twin of n09): `Head`'s associated consts hold Enabled and are read with autodiff tensors;
// `Probe`'s consts of the same names hold Disabled and are only read with plain tensors.
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub struct Head {
    q_w: DispatchTensor,
}

impl Head {
    pub const EVAL: Ctx = Ctx::Enabled(Gcs::Disabled);
    pub const SERVE: Ctx = Self::EVAL;

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &ad_device());
        dispatch::q_matmul(x, self.q_w.clone(), Self::EVAL)
    }

    pub fn serve(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &ad_device());
        dispatch::q_matmul(x, self.q_w.clone(), Self::SERVE)
    }
}

pub struct Probe {
    q_w: DispatchTensor,
}

impl Probe {
    pub const EVAL: Ctx = Ctx::Disabled;
    pub const SERVE: Ctx = Self::EVAL;

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &ad_device().inner());
        dispatch::q_matmul(x, self.q_w.clone(), Self::EVAL)
    }
}

pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, Head::EVAL)
}

pub fn score_served(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = Head::SERVE;
    dispatch::q_matmul(x, q, ctx)
}

pub fn probe(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    dispatch::q_matmul(x, q, Probe::SERVE)
}
