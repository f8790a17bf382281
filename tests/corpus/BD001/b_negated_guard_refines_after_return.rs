// Negated guards + early return: plain inputs return early (`!Dispatch::ad_enabled(&dev)`, `!x.is_autodiff()`),
// so what remains is autodiff, and the Disabled sink after the guard is an error
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{Tensor, TensorData};

pub fn head_on(dev: DispatchDevice, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    if !Dispatch::ad_enabled(&dev) {
        let x = Dispatch::float_from_data(data, &dev);
        return dispatch::q_matmul(x, q, Ctx::Disabled);
    }
    let x = Dispatch::float_from_data(data, &dev);
    let x = Dispatch::float_mul_scalar(x, 0.5f32.into());
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}

pub fn score(x: Tensor<2>, q: DispatchTensor) -> DispatchTensor {
    if !x.is_autodiff() {
        return dispatch::q_matmul(x.into_dispatch(), q, Ctx::Disabled);
    }
    let d = x.into_dispatch();
    dispatch::q_matmul(d, q, Ctx::default()) //~ BD001
}
