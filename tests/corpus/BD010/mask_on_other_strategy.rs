// The model's weights live on a device with gradient checkpointing (`Balanced`), the mask is
// created on a plain `.autodiff()` device (`Disabled`). Both are tracked, but burn runs one
// operation with one strategy and panics: "Gradient checkpointing strategy mismatch".
use burn::tensor::{Device, Tensor};

pub fn masked(values: [f32; 4]) -> Tensor<1> {
    let model_device = Device::default().autodiff().gradient_checkpointing();
    let weights = Tensor::<1>::from_floats(values, &model_device).require_grad();
    let mask = Tensor::<1>::ones([4], &Device::default().autodiff());
    weights * mask //~ BD010
}

pub fn scaled(values: [f32; 4]) -> Tensor<1> {
    let model_device = Device::default().autodiff().gradient_checkpointing();
    let weights = Tensor::<1>::from_floats(values, &model_device);
    let scale = Tensor::<1>::full([4], 0.5, &Device::default().autodiff());
    weights.mul(scale) //~ BD010
}
