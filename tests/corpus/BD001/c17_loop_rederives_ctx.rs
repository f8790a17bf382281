// C17: a loop-carried autodiff tensor with the context re-derived from the kind on every iteration
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct QLayer {
    pub q_w: DispatchTensor,
}

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

pub fn forward(init: TensorData, layers: &[QLayer]) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let mut h = Dispatch::float_from_data(init, &dev);
    for layer in layers {
        let ctx = if is_autodiff(&h) { Ctx::Enabled(Gcs::Disabled) } else { Ctx::Disabled };
        h = dispatch::q_matmul(h, layer.q_w.clone(), ctx);
        h = Dispatch::float_exp(h);
    }
    h
}
