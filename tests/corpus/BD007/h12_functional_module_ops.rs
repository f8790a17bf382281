// H12 (checkpointing era): a functional module op (`burn::tensor::module::conv2d`, `linear`)
// whose input is autodiff and whose weight is plain
//@ era: checkpointing
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Distribution, Tensor};

pub fn features(x: Tensor<4>, options: ConvOptions<2>) -> Tensor<4> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<4>::random([1, 3, 8, 8], Distribution::Default, &device).require_grad();
    let w_plain = Tensor::<4>::ones([4, 3, 3, 3], &Device::default());
    conv2d(x_ad, w_plain, None, options) //~ BD007
}

pub fn head(shape: [usize; 2]) -> Tensor<2> {
    let input = Tensor::<2>::ones(shape, &Device::default().autodiff()).require_grad();
    let weight = Tensor::<2>::ones([4, 4], &Device::default());
    burn::tensor::module::linear(input, weight, None) //~ BD007
}
