// Fine-tuning against a frozen quantized weight: the input is tracked on an autodiff device built over Flex
// and correctly paired with `Ctx::Enabled(..)`, but the weight was quantized on WebGPU. Autodiff does not
// change which backend a tensor lives on, so the operands still come from Flex and Wgpu and `q_matmul` panics.
// An autodiff float cannot be moved between backends: move the quantized weight instead.
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn adapter_step(data: TensorData, frozen: TensorData) -> DispatchTensor {
    let train = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &train);
    let w = Dispatch::float_from_data(frozen, &DispatchDevice::Wgpu(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled)) //~ BD006
}
