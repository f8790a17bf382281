// Guard + early return: autodiff inputs are handled (Enabled) and return early; only plain inputs reach the Disabled sink
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

pub fn logits(mode: Mode, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let x = match mode {
        Mode::Train => Dispatch::float_from_data(data, &DispatchDevice::autodiff(flex)),
        Mode::Eval => Dispatch::float_from_data(data, &flex),
    };
    if is_autodiff(&x) {
        return dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled));
    }
    let x = Dispatch::float_mul_scalar(x, 0.5f32.into());
    dispatch::q_matmul(x, q, Ctx::default())
}
