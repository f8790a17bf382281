// B13 (interprocedural): a downstream-style `as_constant` destructures, sets `autodiff = Disabled` and rebuilds; called on an autodiff tensor
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};
use burn::tensor::{Device, Distribution, Tensor};

fn as_constant(t: Tensor<2>) -> Tensor<2> {
    let DispatchTensor { kind, mut autodiff } = t.into_dispatch();
    autodiff = Ctx::Disabled;
    Tensor::from_dispatch(DispatchTensor { kind, autodiff })
}

pub fn fused_scores(q_weight: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let logits = Tensor::<2>::random([32, 64], Distribution::Default, &device).require_grad();
    let frozen = as_constant(logits.clone()); //~ BD001
    frozen.matmul(q_weight)
}
