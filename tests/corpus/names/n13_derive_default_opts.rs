// Names: `#[derive(Default)]` options structs. The derived default gives each field its type's default, and
// `DispatchAutodiffContext::default()` is `Disabled`: `Opts::default().ctx`, `Opts { .., ..Default::default() }`,
// `let o: Opts = Default::default()` and a nested derived struct all carry Disabled to an autodiff tensor.
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy, Debug, Default)]
pub struct HeadOpts {
    pub ctx: Ctx,
    pub scale: f32,
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
    dispatch::q_matmul(x, q, HeadOpts::default().ctx) //~ BD001
}

pub fn by_struct_update(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let opts = HeadOpts { scale: 0.5, ..Default::default() };
    let x = Dispatch::float_from_data(data, &ad_device());
    let x = Dispatch::float_mul_scalar(x, opts.scale.into());
    dispatch::q_matmul(x, q, opts.ctx) //~ BD001
}

pub fn by_annotated_default(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let opts: HeadOpts = Default::default();
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, opts.ctx) //~ BD001
}

pub fn by_nested_default(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let run = RunOpts { steps: 4, ..RunOpts::default() };
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, run.head.ctx) //~ BD001
}
