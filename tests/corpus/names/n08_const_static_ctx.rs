// Names: consts and statics holding contexts: a `const` with `Disabled`, a `const` defined through another
// const, a `static`, and a const in another module named by path and by import. `TRACKED` (Enabled) is used
// with an autodiff tensor and stays quiet. `legacy` has consts of the same names holding Enabled.
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

const EVAL_CTX: Ctx = Ctx::Disabled;
const TRACKED: Ctx = Ctx::Enabled(Gcs::Disabled);
const HEAD_CTX: Ctx = EVAL_CTX;
static SERVE_CTX: Ctx = Ctx::Disabled;

mod modes {
    use burn::backend::DispatchAutodiffContext;

    pub const FROZEN: DispatchAutodiffContext = DispatchAutodiffContext::Disabled;
}

mod legacy {
    use burn::backend::{DispatchAutodiffContext, GradientCheckpointingStrategy};

    pub const EVAL_CTX: DispatchAutodiffContext = DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled);
    pub const FROZEN: DispatchAutodiffContext = DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled);
}

use crate::modes::FROZEN;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, EVAL_CTX) //~ BD001
}

pub fn score_head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, HEAD_CTX) //~ BD001
}

pub fn score_served(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = SERVE_CTX;
    dispatch::q_matmul(x, q, ctx) //~ BD001
}

pub fn score_frozen(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let y = dispatch::q_matmul(x.clone(), q.clone(), crate::modes::FROZEN); //~ BD001
    let _ = dispatch::q_matmul(x, q, FROZEN); //~ BD001
    y
}

pub fn score_tracked(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, TRACKED)
}
