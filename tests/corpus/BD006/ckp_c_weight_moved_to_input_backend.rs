// Checkpointing era: the weight is quantized on CUDA once and then copied to the CPU (`Flex`) with
// `Dispatch::q_to_device` for the CPU evaluation path, where the input is built. Both operands are on Flex.
//@ era: checkpointing
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, DispatchTensor, TensorPrimitive,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn cpu_eval(data: TensorData, q_gpu: TensorData) -> TensorPrimitive<Dispatch> {
    let w = Dispatch::float_from_data(q_gpu, &DispatchDevice::Cuda(Default::default()));
    let q: DispatchTensor = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    let cpu = DispatchDevice::Flex(Default::default());
    let q = Dispatch::q_to_device(q, &cpu);
    let x = Dispatch::float_from_data(data, &cpu);
    Dispatch::q_matmul(TensorPrimitive::Float(x), TensorPrimitive::QFloat(q))
}
