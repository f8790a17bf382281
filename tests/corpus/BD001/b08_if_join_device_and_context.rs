// B8 with `if`: a device picked by a flag, then a context picked by a flag; each side is only autodiff/Disabled on some paths
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct Opts {
    pub training: bool,
    pub fast_path: bool,
}

pub fn forward(opts: &Opts, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let base = DispatchDevice::Flex(Default::default());
    let device = if opts.training {
        burn::backend::DispatchDevice::autodiff(base)
    } else {
        base
    };
    let x = Dispatch::float_from_data(data, &device);
    dispatch::q_matmul(x, q, burn::backend::DispatchAutodiffContext::Disabled) //~ WARN BD001
}

pub fn forward_tracked(opts: &Opts, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &device);
    let ctx = if opts.fast_path {
        burn::backend::DispatchAutodiffContext::Disabled
    } else {
        burn::backend::DispatchAutodiffContext::Enabled(Gcs::Disabled)
    };
    dispatch::q_matmul(x, q, ctx) //~ WARN BD001
}
