// The fixed form of a quantized layer: it keeps one `device` field and builds both its weight (in `new`) and
// every input (in `forward`) on it, so the operands of `q_matmul` always share a backend.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub struct QuantLinear {
    q_weight: DispatchTensor,
    device: DispatchDevice,
}

impl QuantLinear {
    pub fn new(weight: TensorData) -> Self {
        let device = DispatchDevice::Cuda(Default::default());
        let w = Dispatch::float_from_data(weight, &device);
        Self { q_weight: Dispatch::quantize_dynamic(w, &QuantScheme::default()), device }
    }

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        dispatch::q_matmul(x, self.q_weight.clone(), Ctx::Disabled)
    }
}
