// B2 (single-function variant): the context sits in a config struct literal and a local; the autodiff device in the same struct
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

struct RunCfg {
    device: DispatchDevice,
    ctx: Ctx,
    scale: f32,
}

pub fn encode(data: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let cfg = RunCfg {
        device: DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())),
        ctx: Ctx::Disabled,
        scale: 0.5,
    };
    let x = Dispatch::float_from_data(data, &cfg.device);
    let x = Dispatch::float_mul_scalar(x, cfg.scale.into());
    let ctx = cfg.ctx;
    dispatch::q_matmul(x, q_w, ctx) //~ BD001
}
