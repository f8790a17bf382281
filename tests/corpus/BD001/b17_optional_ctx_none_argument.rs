// B17: `Option<Ctx>` defaulted with `unwrap_or_default()`; the caller passing `None` with an autodiff tensor is reported
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn run(x: DispatchTensor, q: DispatchTensor, ctx: Option<Ctx>) -> DispatchTensor {
    dispatch::q_matmul(x, q, ctx.unwrap_or_default())
}

pub fn serve(d: TensorData, q: DispatchTensor) -> (DispatchTensor, DispatchTensor) {
    let x = Dispatch::float_from_data(d, &ad_device());
    let tracked = run(x.clone(), q.clone(), Some(Ctx::Enabled(Gcs::Disabled)));
    let untracked = run(x, q, None); //~ BD001
    (tracked, untracked)
}
