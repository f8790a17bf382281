// H1 (checkpointing era): an autodiff tensor and a plain one meet in a binary op, by method or operator
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn project(x: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w_ad = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    w_ad.matmul(x.no_grad()) //~ BD007
}

pub fn residual(shape: [usize; 2]) -> Tensor<2> {
    let h = Tensor::<2>::ones(shape, &Device::default().autodiff());
    let bias = Tensor::<2>::zeros(shape, &Device::default());
    h + bias //~ BD007
}

pub fn scaled_by_gradient(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();
    let grads = w.clone().powf_scalar(2.0).sum().backward();
    let g = w.grad(&grads).unwrap();
    let step = g.mul_scalar(0.1);
    step.sub(w) //~ BD007
}
