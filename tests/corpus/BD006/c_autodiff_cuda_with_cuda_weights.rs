// Fine-tuning on the GPU: the tracked input lives on an autodiff device wrapping CUDA and the frozen weight is
// quantized on the same CUDA device (unwrapped with `.inner()`). Same backend, and an Enabled context for the
// autodiff input, so `q_matmul` runs.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn adapter_step(data: TensorData, frozen: TensorData) -> DispatchTensor {
    let train = DispatchDevice::autodiff(DispatchDevice::Cuda(Default::default()));
    let x = Dispatch::float_from_data(data, &train);
    let w = Dispatch::float_from_data(frozen, &train.clone().inner());
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled))
}
