// C14: gradients come back on the inner backend, so a Disabled sink on a gradient is fine
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn quantized_grad_norm(w: TensorData, x: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = ad_device();
    let w = Dispatch::float_set_require_grad(Dispatch::float_from_data(w, &dev), true);
    let x = Dispatch::float_from_data(x, &dev);
    let loss = Dispatch::float_sum(Dispatch::float_matmul(x, w.clone()));
    let grads = <Dispatch as AutodiffBackend>::backward(loss);
    let g = <Dispatch as AutodiffBackend>::grad(&w, &grads).expect("w is tracked");
    dispatch::q_matmul(g, q, Ctx::Disabled)
}
