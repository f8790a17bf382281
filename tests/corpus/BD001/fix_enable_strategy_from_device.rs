// Fix: the strategy of the enabled context is taken from the autodiff device the tensor was built on
use burn::backend::{
    Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy,
};
use burn::tensor::TensorData;

pub fn balanced_head(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        GradientCheckpointingStrategy::Balanced,
    );
    let x = Dispatch::float_from_data(data, &dev);
    dispatch::q_matmul(x, q, DispatchAutodiffContext::default()) //~ BD001
}
