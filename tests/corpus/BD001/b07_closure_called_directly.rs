// B7, direct calls: `apply(x)` with an autodiff `x` is reported at the call; the same closure on a plain tensor is fine
//@ fix-choice: strip-autodiff
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub fn two_heads(a: TensorData, b: TensorData, q: DispatchTensor) -> (DispatchTensor, DispatchTensor) {
    let flex = DispatchDevice::Flex(Default::default());
    let ad = DispatchDevice::autodiff(flex.clone());
    let eval_ctx = Ctx::default();
    let apply = |t: DispatchTensor| {
        let t = Dispatch::float_mul_scalar(t, 0.5f32.into());
        dispatch::q_matmul(t, q.clone(), eval_ctx) //~ BD001
    };
    let plain = apply(Dispatch::float_from_data(a, &flex));
    let x = Dispatch::float_from_data(b, &ad);
    let tracked = apply(x);
    (plain, tracked)
}
