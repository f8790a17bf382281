// `detach()` is not a sanitizer (context era): the frozen features stay autodiff and meet a
// `Disabled` context. The fix replaces `detach()` with `without_autodiff()`, the strip that was
// meant (`no_grad()` no longer exists from 0.22.0-pre.4 on).
//@ era: context
//@ fix-choice: replace-detach
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};
use burn::tensor::{Device, Distribution, Tensor};

pub fn frozen_features(q: DispatchTensor) -> DispatchTensor {
    let device = Device::default().autodiff();
    let x = Tensor::<2>::random([8, 16], Distribution::Default, &device);
    let frozen = x.detach().into_dispatch();
    dispatch::q_matmul(frozen, q, Ctx::Disabled) //~ BD001
}
