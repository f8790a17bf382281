// Clean: a brush-style `lift_to_autodiff` guarded by the kind predicate, called with both kinds of tensor
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
    DispatchTensorKind,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

fn lift_to_autodiff(t: DispatchTensor) -> DispatchTensor {
    if is_autodiff(&t) {
        t
    } else {
        <Dispatch as AutodiffBackend>::from_inner(t)
    }
}

pub fn inputs(a: TensorData, b: TensorData) -> (DispatchTensor, DispatchTensor) {
    let plain = DispatchDevice::Flex(Default::default());
    let ad = DispatchDevice::autodiff(plain.clone());
    let x = lift_to_autodiff(Dispatch::float_from_data(a, &plain));
    let y = lift_to_autodiff(Dispatch::float_from_data(b, &ad));
    (x, y)
}
