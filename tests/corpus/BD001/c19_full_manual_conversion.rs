// C19: the correct version of B13: unwrap BOTH layers of the Autodiff kind, then pair the plain kind with Disabled
//@ clean
use burn::backend::{BackendTensor, DispatchAutodiffContext as Ctx, DispatchTensor, DispatchTensorKind};
use burn::tensor::{Device, Distribution, Tensor};

pub fn as_constant(x: Tensor<2>) -> Tensor<2> {
    let DispatchTensor { kind, .. } = x.into_dispatch();
    let kind = match kind {
        DispatchTensorKind::Autodiff(inner) => match *inner {
            DispatchTensorKind::Flex(BackendTensor::Autodiff(t)) => {
                DispatchTensorKind::Flex(BackendTensor::Float(t.primitive))
            }
            other => other,
        },
        other => other,
    };
    Tensor::<2>::from_dispatch(DispatchTensor { kind, autodiff: Ctx::Disabled })
}

pub fn frozen(q_weight: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random([4, 8], Distribution::Default, &device);
    as_constant(x_ad).matmul(q_weight)
}
