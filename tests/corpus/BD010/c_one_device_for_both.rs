// Clean twin of mask_on_other_strategy: one device value (with checkpointing) builds the
// weights and the mask, so both carry the same strategy.
//@ clean
use burn::tensor::{Device, Tensor};

pub fn masked(values: [f32; 4]) -> Tensor<1> {
    let device = Device::default().autodiff().gradient_checkpointing();
    let weights = Tensor::<1>::from_floats(values, &device).require_grad();
    let mask = Tensor::<1>::ones([4], &device);
    weights * mask
}

pub fn plain_devices(values: [f32; 4]) -> Tensor<1> {
    let a = Tensor::<1>::from_floats(values, &Device::default().autodiff());
    let b = Tensor::<1>::ones([4], &Device::default().autodiff());
    a + b
}
