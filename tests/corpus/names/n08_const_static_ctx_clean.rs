// Names (clean twin of n08): the same consts and static hold Enabled contexts (directly, through another const
// and in another module), used with autodiff tensors; `PLAIN` (Disabled) is used with a plain tensor.
// `legacy` has consts of the same names holding Disabled, which nothing here names.
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

const EVAL_CTX: Ctx = Ctx::Enabled(Gcs::Disabled);
const TRACKED: Ctx = Ctx::Enabled(Gcs::Disabled);
const PLAIN: Ctx = Ctx::Disabled;
const HEAD_CTX: Ctx = EVAL_CTX;
static SERVE_CTX: Ctx = TRACKED;

mod modes {
    use burn::backend::{DispatchAutodiffContext, GradientCheckpointingStrategy};

    pub const FROZEN: DispatchAutodiffContext =
        DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled);
}

mod legacy {
    use burn::backend::DispatchAutodiffContext;

    pub const EVAL_CTX: DispatchAutodiffContext = DispatchAutodiffContext::Disabled;
    pub const FROZEN: DispatchAutodiffContext = DispatchAutodiffContext::Disabled;
}

use crate::modes::FROZEN;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, EVAL_CTX)
}

pub fn score_head(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, HEAD_CTX)
}

pub fn score_served(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let ctx = SERVE_CTX;
    dispatch::q_matmul(x, q, ctx)
}

pub fn score_frozen(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let y = dispatch::q_matmul(x.clone(), q.clone(), crate::modes::FROZEN);
    let _ = dispatch::q_matmul(x, q, FROZEN);
    y
}

pub fn score_plain(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device().inner());
    dispatch::q_matmul(x, q, PLAIN)
}
