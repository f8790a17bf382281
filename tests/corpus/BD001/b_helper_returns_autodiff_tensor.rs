// Summary: a same-file helper returns an autodiff tensor (require_grad on an autodiff device); the caller pairs it with Disabled
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn load_activation(data: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let t = Dispatch::float_from_data(data, &dev);
    Dispatch::float_set_require_grad(t, true)
}

pub fn probe(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let act = load_activation(data);
    let out = dispatch::q_matmul(act, q, DispatchAutodiffContext::Disabled);
    // the probe is evaluation-only, so the author picked the Disabled context above
    //~^^ BD001
    out
}
