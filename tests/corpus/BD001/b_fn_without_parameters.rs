// A function without parameters (an empty parameter list, no `self` to look for) is analyzed like
// any other: the bug inside it and in an associated function without parameters is reported
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn weights() -> DispatchTensor {
    Dispatch::float_from_data(TensorData::new(vec![1.0f32], [1]), &DispatchDevice::Flex(Default::default()))
}

pub fn scores() -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(TensorData::new(vec![1.0f32], [1]), &device);
    dispatch::q_matmul(x, weights(), DispatchAutodiffContext::Disabled) //~ BD001
}

pub struct Head;

impl Head {
    pub fn run() -> DispatchTensor {
        let x = Dispatch::float_from_data(TensorData::new(vec![2.0f32], [1]), &DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())));
        dispatch::q_matmul(x, weights(), DispatchAutodiffContext::Disabled) //~ BD001
    }
}
