// Clean twin: a detached tensor kept tracked meets an enabled context, and a detached tensor
// stripped afterwards meets a disabled one.
//@ era: context
//@ clean
use burn::backend::{
    DispatchAutodiffContext as Ctx, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{Device, Distribution, Tensor};

pub fn tracked(q: DispatchTensor) -> DispatchTensor {
    let device = Device::default().autodiff();
    let x = Tensor::<2>::random([8, 16], Distribution::Default, &device);
    let frozen = x.detach().into_dispatch();
    dispatch::q_matmul(frozen, q, Ctx::Enabled(Gcs::Disabled))
}

pub fn stripped(q: DispatchTensor) -> DispatchTensor {
    let device = Device::default().autodiff();
    let x = Tensor::<2>::random([8, 16], Distribution::Default, &device);
    let frozen = x.detach().without_autodiff().into_dispatch();
    dispatch::q_matmul(frozen, q, Ctx::Disabled)
}
