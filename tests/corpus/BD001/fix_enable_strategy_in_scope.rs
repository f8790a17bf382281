// Fix: the strategy is unknown to the data flow, so the variable in scope is used (unsafe fix)
use burn::backend::{
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn head(q: DispatchTensor, data: TensorData, strategy: Gcs) -> DispatchTensor {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        strategy,
    );
    let x = Dispatch::float_from_data(data, &dev);
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}
