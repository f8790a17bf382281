// C9: the buggy calls sit after `return` and after `panic!`, so they never run
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

#[allow(unreachable_code)]
pub fn tracked(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    return dispatch::q_matmul(x.clone(), q.clone(), Ctx::Enabled(Gcs::Disabled));
    dispatch::q_matmul(x, q, Ctx::Disabled)
}

#[allow(unreachable_code)]
pub fn legacy_eval(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    panic!("legacy_eval was removed; quantize the inner tensor instead");
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
