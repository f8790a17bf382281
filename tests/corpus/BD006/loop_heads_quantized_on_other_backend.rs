// Multi-head scoring: each head's weight is quantized on CUDA in `quantize_heads`, while the shared input is
// built on the CPU (`Flex`). Every `q_matmul` in the loop pairs a Flex input with a CUDA weight, so the first
// head already panics with "q_matmul inputs are on different backends".
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn quantize_heads(weights: Vec<TensorData>) -> Vec<DispatchTensor> {
    let gpu = DispatchDevice::Cuda(Default::default());
    let mut heads = Vec::new();
    for w in weights {
        let w = Dispatch::float_from_data(w, &gpu);
        heads.push(Dispatch::quantize_dynamic(w, &QuantScheme::default()));
    }
    heads
}

pub fn scores(data: TensorData, weights: Vec<TensorData>) -> Vec<DispatchTensor> {
    let heads = quantize_heads(weights);
    let x = Dispatch::float_from_data(data, &DispatchDevice::Flex(Default::default()));
    let mut out = Vec::new();
    for q in &heads {
        out.push(dispatch::q_matmul(x.clone(), q.clone(), Ctx::Disabled)); //~ BD006
    }
    out
}
