// Training and evaluation pick different devices, an autodiff device over Flex and plain Flex, but both are
// the Flex backend, like the weight. Autodiff is not a different backend in this era, and the context is
// taken from the input itself, so `q_matmul` runs on both paths.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn logits(training: bool, data: TensorData, weights: TensorData) -> DispatchTensor {
    let cpu = DispatchDevice::Flex(Default::default());
    let device = if training { DispatchDevice::autodiff(cpu.clone()) } else { cpu.clone() };
    let x = Dispatch::float_from_data(data, &device);
    let q = Dispatch::quantize_dynamic(Dispatch::float_from_data(weights, &cpu), &QuantScheme::default());
    let ctx = x.autodiff;
    dispatch::q_matmul(x, q, ctx)
}
