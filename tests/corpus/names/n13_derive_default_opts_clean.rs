// Names (clean twin of n13): `HeadOpts` has a hand-written `impl Default` whose context is Enabled, so
// `HeadOpts::default().ctx`, `..Default::default()`, `let o: HeadOpts = Default::default()` and the derived
// `RunOpts::default().head` (which calls `HeadOpts::default()`) all carry Enabled to the autodiff tensors.
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy, Debug)]
pub struct HeadOpts {
    pub ctx: Ctx,
    pub scale: f32,
}

impl Default for HeadOpts {
    fn default() -> Self {
        Self { ctx: Ctx::Enabled(Gcs::Disabled), scale: 1.0 }
    }
}

#[derive(Default)]
pub struct RunOpts {
    pub head: HeadOpts,
    pub steps: usize,
}

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn by_default_call(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, HeadOpts::default().ctx)
}

pub fn by_struct_update(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let opts = HeadOpts { scale: 0.5, ..Default::default() };
    let x = Dispatch::float_from_data(data, &ad_device());
    let x = Dispatch::float_mul_scalar(x, opts.scale.into());
    dispatch::q_matmul(x, q, opts.ctx)
}

pub fn by_annotated_default(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let opts: HeadOpts = Default::default();
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, opts.ctx)
}

pub fn by_nested_default(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let run = RunOpts { steps: 4, ..RunOpts::default() };
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, run.head.ctx)
}
