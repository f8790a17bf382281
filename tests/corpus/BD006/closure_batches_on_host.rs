// Batched inference through an iterator closure: the quantized weight is prepared on CUDA, while the closure
// builds each batch on the CPU (`Flex`) before multiplying. Every call of the closure hands `q_matmul` one
// Flex and one CUDA operand: "q_matmul inputs are on different backends".
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub fn run_batches(batches: Vec<TensorData>, weights: TensorData) -> Vec<DispatchTensor> {
    let w = Dispatch::float_from_data(weights, &DispatchDevice::Cuda(Default::default()));
    let q = Dispatch::quantize_dynamic(w, &QuantScheme::default());
    let cpu = DispatchDevice::Flex(Default::default());
    batches
        .into_iter()
        .map(|batch| {
            let x = Dispatch::float_from_data(batch, &cpu);
            dispatch::q_matmul(x, q.clone(), Ctx::Disabled) //~ BD006
        })
        .collect()
}
