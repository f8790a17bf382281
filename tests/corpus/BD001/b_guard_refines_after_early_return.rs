// B8 + guard: plain inputs return early, so on the remaining path the input is certainly autodiff and the Disabled sink is an error
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
    DispatchTensorKind,
};
use burn::tensor::TensorData;

pub enum Mode {
    Train,
    Eval,
}

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

fn eval_ctx() -> DispatchAutodiffContext {
    DispatchAutodiffContext::Disabled
}

pub fn logits(mode: Mode, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let base = DispatchDevice::Flex(Default::default());
    let x = match mode {
        Mode::Train => Dispatch::float_from_data(data, &DispatchDevice::autodiff(base)),
        Mode::Eval => Dispatch::float_from_data(data, &base),
    };
    if !is_autodiff(&x) {
        return dispatch::q_matmul(x, q, DispatchAutodiffContext::Disabled);
    }
    let x = Dispatch::float_mul_scalar(x, 0.5f32.into());
    dispatch::q_matmul(x, q, eval_ctx()) //~ BD001
}
