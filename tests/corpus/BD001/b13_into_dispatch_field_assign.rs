// B13: the high-level "as_constant" half-conversion clears only the flag of an autodiff tensor; its kind stays Autodiff
use burn::backend::DispatchAutodiffContext;
use burn::tensor::{quantization::QuantScheme, Device, Distribution, Tensor};

pub fn quantized_head(scheme: &QuantScheme) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x_ad = Tensor::<2>::random([8, 16], Distribution::Default, &device);
    let w = Tensor::<2>::random([16, 4], Distribution::Default, &device.clone().inner());
    let q_weight = w.quantize_dynamic(scheme);

    let mut d = x_ad.clone().into_dispatch();
    d.autodiff = DispatchAutodiffContext::Disabled; //~ BD001
    Tensor::<2>::from_dispatch(d).matmul(q_weight)
}
