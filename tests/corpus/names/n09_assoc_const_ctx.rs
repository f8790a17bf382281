// Names: associated consts holding contexts (`impl Head { const EVAL: Ctx = Ctx::Disabled; }`), read as
// `Self::EVAL` inside the impl and as `Head::EVAL` outside, and one defined through another associated const.
// `Probe` has associated consts of the same names holding Enabled; only `Head`'s are read with autodiff tensors.
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
    pub const EVAL: Ctx = Ctx::Disabled;
    pub const SERVE: Ctx = Self::EVAL;

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &ad_device());
        dispatch::q_matmul(x, self.q_w.clone(), Self::EVAL) //~ BD001
    }

    pub fn serve(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &ad_device());
        dispatch::q_matmul(x, self.q_w.clone(), Self::SERVE) //~ BD001
    }
}

pub struct Probe {
    q_w: DispatchTensor,
}

impl Probe {
    pub const EVAL: Ctx = Ctx::Enabled(Gcs::Disabled);
    pub const SERVE: Ctx = Self::EVAL;

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &ad_device());
        dispatch::q_matmul(x, self.q_w.clone(), Self::EVAL)
    }
}

pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, Head::EVAL) //~ BD001
}

pub fn score_served(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = Head::SERVE;
    dispatch::q_matmul(x, q, ctx) //~ BD001
}

pub fn probe(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, Probe::SERVE)
}
