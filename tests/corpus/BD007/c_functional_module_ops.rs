// Clean (checkpointing era): functional module ops whose input and weight are both autodiff,
// both plain, or not known
//@ era: checkpointing
//@ clean
use burn::tensor::module::{conv2d, linear};
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Distribution, Tensor};

pub fn features(options: ConvOptions<2>) -> Tensor<4> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<4>::random([1, 3, 8, 8], Distribution::Default, &device).require_grad();
    let w_ad = Tensor::<4>::ones([4, 3, 3, 3], &device).require_grad();
    conv2d(x_ad, w_ad, None, options)
}

pub fn plain(shape: [usize; 2]) -> Tensor<2> {
    let input = Tensor::<2>::ones(shape, &Device::default());
    let weight = Tensor::<2>::ones([4, 4], &Device::default());
    linear(input, weight, None)
}

pub fn unknown(input: Tensor<2>, weight: Tensor<2>) -> Tensor<2> {
    linear(input, weight, None)
}
