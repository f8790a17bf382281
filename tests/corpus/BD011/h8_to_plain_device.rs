// H8 (checkpointing era): an autodiff tensor moved to a plain device
//@ era: checkpointing
use burn::tensor::{Device, Tensor, TensorData};

pub fn predictions_for_metrics(data: TensorData) -> Tensor<2> {
    let device = Device::default().autodiff();
    let logits = Tensor::<2>::from_data(data, &device).require_grad().mul_scalar(2.0);
    logits.to_device(&device.inner()) //~ BD011
}

pub fn to_cuda(shape: [usize; 2]) -> Tensor<2> {
    let x = Tensor::<2>::ones(shape, &Device::cuda(0).autodiff());
    let target = Device::cuda(1);
    x.to_device(&target) //~ BD011
}
