// A lazily loaded weight cache: `load` quantizes the weight on CUDA and stores it in an `Option` field, `run`
// builds the request on the CPU (`Flex`) and multiplies it with the cached weight. The two methods disagree
// on the backend, so `q_matmul` panics with "q_matmul inputs are on different backends".
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{quantization::QuantScheme, TensorData};

pub struct Scorer {
    q_weight: Option<DispatchTensor>,
}

impl Scorer {
    pub fn load(&mut self, weights: TensorData) {
        let w = Dispatch::float_from_data(weights, &DispatchDevice::Cuda(Default::default()));
        self.q_weight = Some(Dispatch::quantize_dynamic(w, &QuantScheme::default()));
    }

    pub fn run(&self, request: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(request, &DispatchDevice::Flex(Default::default()));
        let q = self.q_weight.clone().expect("call `load` first");
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD006
    }
}
