// Tuples: two autodiff tensors destructured from a tuple both hit Disabled sinks on one line (second finding annotated with the same-line marker)
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn siamese(left: TensorData, right: TensorData, q: DispatchTensor) -> (DispatchTensor, DispatchTensor) {
    let dev = ad_device();
    let pair = (Dispatch::float_from_data(left, &dev), Dispatch::float_from_data(right, &dev));
    let (a, b) = pair;
    let ctx = Ctx::Disabled;
    (dispatch::q_matmul(a, q.clone(), ctx), dispatch::q_matmul(b, q, ctx)) //~ BD001
    //~| BD001
}
