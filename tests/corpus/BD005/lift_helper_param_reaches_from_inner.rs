// BD005 interprocedural (B6-style, context era): a same-file `lift` calls `Dispatch::from_inner` on its parameter; an autodiff tensor is passed
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn lift(t: DispatchTensor) -> DispatchTensor {
    <Dispatch as AutodiffBackend>::from_inner(t)
}

pub fn inputs(a: TensorData, b: TensorData) -> (DispatchTensor, DispatchTensor) {
    let plain = DispatchDevice::Flex(Default::default());
    let ad = DispatchDevice::autodiff(plain.clone());
    let lifted = lift(Dispatch::float_from_data(a, &plain));
    let twice = lift(Dispatch::float_from_data(b, &ad)); //~ BD005
    (lifted, twice)
}
