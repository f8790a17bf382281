// Captured contexts that match: an Enabled context (strategy of the device) captured by a closure mapped over
// autodiff elements, and an `iter().map` over a `vec![..]` of autodiff tensors with Enabled
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn tracked_scores(rows: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        Gcs::Balanced,
    );
    let ctx = Ctx::Enabled(Gcs::Balanced);
    let apply = |t: DispatchTensor| dispatch::q_matmul(t, q.clone(), ctx);
    rows.into_iter().map(|r| Dispatch::float_from_data(r, &dev)).map(apply).collect()
}

pub fn pair(a: TensorData, b: TensorData, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let xs = vec![Dispatch::float_from_data(a, &ad), Dispatch::float_from_data(b, &ad)];
    xs.iter().map(|t| dispatch::q_matmul(t.clone(), q.clone(), Ctx::Enabled(Gcs::Disabled))).collect()
}
