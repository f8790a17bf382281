// Clean (checkpointing era): both operands tracked, both plain, `no_grad` on both, scalars, and
// operands whose autodiff-ness is not known (parameters): nothing mixes
//@ era: checkpointing
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn both_tracked(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let a = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();
    let b = Tensor::<2>::ones(shape, &device);
    let lifted = Tensor::<2>::from_inner(Tensor::<2>::zeros(shape, &Device::default()));
    (a.clone().matmul(b.clone()) + b * 2.0).add(lifted).mul(a)
}

pub fn both_plain(shape: [usize; 2]) -> Tensor<2> {
    let a = Tensor::<2>::ones(shape, &Device::default());
    let b = Tensor::<2>::zeros(shape, &Device::default());
    a - b
}

pub fn no_grad_on_both(x: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    Tensor::cat(vec![w.clone().no_grad(), x.no_grad()], 0).matmul(w.detach().no_grad())
}

pub fn unknown_operands(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device);
    Tensor::cat(vec![a.clone(), w.clone()], 0) + b.matmul(w)
}
