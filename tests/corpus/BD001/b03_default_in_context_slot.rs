// B3/B12: `Default::default()` and `DispatchAutodiffContext::default()` in the context slot both mean `Disabled`
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor, TensorPrimitive,
};
use burn::tensor::TensorData;

pub fn requantized_input(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    let lhs = DispatchTensor {
        kind: x.kind,
        autodiff: Default::default(), //~ BD001
    };
    match Dispatch::q_matmul(TensorPrimitive::Float(lhs), TensorPrimitive::QFloat(q)) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!("float lhs gives a float output"),
    }
}

pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    dispatch::q_matmul(x, q, DispatchAutodiffContext::default()) //~ BD001
}
