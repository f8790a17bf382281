// H6: `x_ad.device().autodiff()` on a tensor that already lives on an autodiff device -> "Only first-order autodiff is supported"
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

pub fn mirror(shape: [usize; 2]) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random(shape, Distribution::Default, &device);
    let mirror_device = x_ad
        .device()
        .autodiff(); //~ BD004
    Tensor::<2>::zeros(shape, &mirror_device)
}

pub fn same_line(shape: [usize; 2]) -> Tensor<2> {
    let w = Tensor::<2>::ones(shape, &Device::default().autodiff()).require_grad();
    Tensor::<2>::ones(shape, &w.device().autodiff()) //~ BD004
}
