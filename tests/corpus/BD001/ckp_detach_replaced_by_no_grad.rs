// `detach()` is not a sanitizer (checkpointing era): the fix replaces it with `no_grad()`, which
// strips autodiff there (`without_autodiff()` only exists from 0.22.0-pre.4 on).
//@ era: checkpointing
//@ fix-choice: replace-detach
use burn::backend::DispatchTensor;
use burn::tensor::{Device, Distribution, Tensor};

pub fn target_network() -> DispatchTensor {
    let device = Device::default().autodiff();
    let online = Tensor::<2>::random([8, 16], Distribution::Default, &device).require_grad();
    let target = online.clone().detach().into_dispatch();
    DispatchTensor { kind: target.kind, checkpointing: None } //~ BD001
}
