// Clean (checkpointing era): moves between two autodiff devices, a plain tensor moved anywhere,
// `no_grad()` before a move to a plain device, and a move of a tensor whose kind is not known
//@ era: checkpointing
//@ clean
use burn::tensor::{Device, Tensor};

pub fn moves(shape: [usize; 2], unknown: Tensor<2>) -> Tensor<2> {
    let ad0 = Device::cuda(0).autodiff();
    let ad1 = Device::cuda(1).autodiff();
    let x = Tensor::<2>::ones(shape, &ad0).to_device(&ad1);
    let plain = Tensor::<2>::zeros(shape, &Device::cuda(0)).to_device(&ad1);
    let read = x.clone().no_grad().to_device(&Device::cuda(0));
    let other = unknown.to_device(&Device::cuda(0));
    x + Tensor::from_inner(plain + read + other)
}
