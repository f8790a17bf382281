// C14 (checkpointing era): a gradient has a plain kind (its field still says `Some`), so `checkpointing: None` is consistent
//@ era: checkpointing
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub fn clean_grad(w: TensorData, x: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let w = Dispatch::float_set_require_grad(Dispatch::float_from_data(w, &ad), true);
    let loss = Dispatch::float_sum(Dispatch::float_mul(w.clone(), Dispatch::float_from_data(x, &ad)));
    let grads = <Dispatch as AutodiffBackend>::backward(loss);
    let mut g = <Dispatch as AutodiffBackend>::grad(&w, &grads).expect("tracked weight");
    g.checkpointing = None;
    g
}
