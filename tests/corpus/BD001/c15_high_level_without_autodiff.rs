// C15/C16: high-level sanitizers (`without_autodiff`, `inner`) before dropping to the dispatch level; a primitive round trip
//@ clean
use burn::backend::{Autodiff, DispatchAutodiffContext as Ctx, DispatchTensor, Flex};
use burn::tensor::{quantization::QuantScheme, Device, Distribution, Tensor};

pub fn constant_features(scheme: &QuantScheme) -> (Tensor<2>, DispatchTensor) {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random([8, 16], Distribution::Default, &device);
    let w_ad = Tensor::<2>::random([16, 16], Distribution::Default, &device).require_grad();

    let q_weight = w_ad.clone().without_autodiff().quantize_dynamic(scheme);
    let feats = x_ad.clone().without_autodiff();
    let y = feats.matmul(q_weight);

    let d = x_ad.clone().inner().into_dispatch();
    let constant = DispatchTensor { kind: d.kind, autodiff: Ctx::Disabled };
    let tracked = x_ad.matmul(w_ad);
    (tracked.add(y), constant)
}

pub fn round_trip(x_ad: Tensor<2>) -> Tensor<2> {
    let prim = x_ad.try_into_primitive::<Autodiff<Flex>>().expect("flex autodiff tensor");
    Tensor::<2>::from_primitive::<Autodiff<Flex>>(prim)
}
