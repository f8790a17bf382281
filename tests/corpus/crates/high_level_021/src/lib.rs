//@ clean
// The same high-level Tensor API code in three crates pinned to three burn versions
// (this one: 0.21.0, before the dispatch API): each rule fires only where that version panics.
use burn::tensor::{Device, Distribution, Tensor};

// BD007: an autodiff tensor and a plain one in one operation (0.22.0-pre.4 merges them).
pub fn residual(shape: [usize; 2]) -> Tensor<2> {
    let h = Tensor::<2>::ones(shape, &Device::default().autodiff());
    let bias = Tensor::<2>::zeros(shape, &Device::default());
    h + bias
}

// BD008: `inner()` on a plain tensor (an alias of `without_autodiff()` from 0.22.0-pre.4).
pub fn features(shape: [usize; 2]) -> Tensor<2> {
    let x = Tensor::<2>::ones(shape, &Device::default());
    x.inner()
}

// BD009: `backward()` on a loss that was made plain (every dispatch version).
pub fn stripped_loss() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let loss = w.clone().powf_scalar(2.0).sum().without_autodiff();
    let grads = loss.backward();
    w.grad(&grads).unwrap()
}

// BD010: two gradient-checkpointing strategies meet (every dispatch version).
fn gate(a: Tensor<1>, b: Tensor<1>) -> Tensor<1> {
    a * b
}

pub fn forward(values: [f32; 4]) -> Tensor<1> {
    let checkpointed = Device::default().autodiff().gradient_checkpointing();
    let x = Tensor::<1>::from_floats(values, &checkpointed);
    let g = Tensor::<1>::ones([4], &Device::default().autodiff());
    gate(x, g)
}

// BD011: an autodiff tensor moved to a plain device (0.22.0-pre.4 keeps its context).
pub fn predictions(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let logits = Tensor::<2>::ones(shape, &device).require_grad().mul_scalar(2.0);
    logits.to_device(&device.inner())
}

// BD012: gradient checkpointing asked of a plain device (every dispatch version).
pub fn init(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::cuda(0).gradient_checkpointing().autodiff();
    Tensor::<2>::random(shape, Distribution::Default, &device).require_grad()
}

// BD014: `require_grad()` on a plain tensor (a panic from 0.22.0-pre.4 on).
pub fn leaf(shape: [usize; 2]) -> Tensor<2> {
    Tensor::<2>::ones(shape, &Device::default()).require_grad()
}

// BD005: an autodiff tensor lifted again (an alias of `autodiff()` from 0.22.0-pre.4 on).
pub fn lifted(shape: [usize; 2]) -> Tensor<2> {
    let w = Tensor::<2>::ones(shape, &Device::default().autodiff()).require_grad();
    Tensor::<2>::from_inner(w)
}

// BD004: an autodiff device made autodiff again (idempotent from 0.22.0-pre.4 on).
pub fn mirror(shape: [usize; 2]) -> Tensor<2> {
    let w = Tensor::<2>::ones(shape, &Device::default().autodiff()).require_grad();
    Tensor::<2>::ones(shape, &w.device().autodiff())
}
