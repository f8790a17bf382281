// C5: the sink is guarded by `is_autodiff` and both branches pass a context that matches the input
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub enum Mode {
    Train,
    Eval,
}

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

pub fn logits(mode: Mode, data: TensorData, q: DispatchTensor, strategy: Gcs) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let x = match mode {
        Mode::Train => Dispatch::float_from_data(data, &DispatchDevice::autodiff(flex)),
        Mode::Eval => Dispatch::float_from_data(data, &flex),
    };
    let y = if is_autodiff(&x) {
        dispatch::q_matmul(x, q, Ctx::Enabled(strategy))
    } else {
        dispatch::q_matmul(x, q, Ctx::Disabled)
    };
    Dispatch::float_exp(y)
}
