// Clean (context era): from 0.22.0-pre.4 on a plain operand of a functional module op is a
// constant of the autodiff result (#5551), so the H12 code runs
//@ era: context
//@ clean
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Distribution, Tensor};

pub fn features(options: ConvOptions<2>) -> Tensor<4> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<4>::random([1, 3, 8, 8], Distribution::Default, &device).require_grad();
    let w_plain = Tensor::<4>::ones([4, 3, 3, 3], &Device::default());
    conv2d(x_ad, w_plain, None, options)
}
