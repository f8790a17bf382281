// A stack of quantized layers whose weights and hidden state are all created on the same WebGPU device; the
// hidden state carried around the loop stays on that backend, so every `q_matmul` is fine.
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn forward(init: TensorData, weights: Vec<TensorData>) -> DispatchTensor {
    let gpu = DispatchDevice::Wgpu(Default::default());
    let mut layers = Vec::new();
    for w in weights {
        layers.push(Dispatch::quantize_dynamic(Dispatch::float_from_data(w, &gpu), &QuantScheme::default()));
    }
    let mut h = Dispatch::float_from_data(init, &gpu);
    for q in &layers {
        h = dispatch::q_matmul(h, q.clone(), Ctx::Disabled);
        h = Dispatch::float_exp(h);
    }
    h
}
