// A quantized linear layer keeps its weight and the device its inputs are built on as two fields. `new`
// quantizes the weight on CUDA but records the CPU (`Flex`) as the input device, so every `forward` builds
// its input on Flex and multiplies it with a CUDA weight: "q_matmul inputs are on different backends".
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub struct QuantLinear {
    q_weight: DispatchTensor,
    input_device: DispatchDevice,
}

impl QuantLinear {
    pub fn new(weight: TensorData) -> Self {
        let w = Dispatch::float_from_data(weight, &DispatchDevice::Cuda(Default::default()));
        Self {
            q_weight: Dispatch::quantize_dynamic(w, &QuantScheme::default()),
            input_device: DispatchDevice::Flex(Default::default()),
        }
    }

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.input_device);
        dispatch::q_matmul(x, self.q_weight.clone(), Ctx::Disabled) //~ BD006
    }
}
