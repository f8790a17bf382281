// Clean (context era): from 0.22.0-pre.4 on one operation merges its inputs' contexts (#5551), so the
// same mixing as h1/h9 runs: the plain operand is a constant of the autodiff result
//@ era: context
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn project(x: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let w_ad = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    w_ad.matmul(x.without_autodiff())
}

pub fn residual(shape: [usize; 2]) -> Tensor<2> {
    let h = Tensor::<2>::ones(shape, &Device::default().autodiff());
    let bias = Tensor::<2>::zeros(shape, &Device::default());
    h + bias
}

pub fn joined(y: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random([2, 4], Distribution::Default, &device);
    Tensor::cat(vec![x_ad, y.without_autodiff()], 0)
}
