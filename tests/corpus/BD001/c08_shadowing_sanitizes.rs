// C8: shadowing with the inner tensor; the autodiff binding is dead by the time the Disabled sink runs
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn quantized_probe(data: TensorData, q: DispatchTensor) -> (DispatchTensor, DispatchTensor) {
    let x = Dispatch::float_from_data(data, &ad_device());
    let x = Dispatch::float_set_require_grad(x, true);
    let loss_input = Dispatch::float_mul_scalar(x.clone(), 3.0f32.into());
    let x = <Dispatch as AutodiffBackend>::inner(x);
    let probe = dispatch::q_matmul(x, q, DispatchAutodiffContext::Disabled);
    (loss_input, probe)
}
