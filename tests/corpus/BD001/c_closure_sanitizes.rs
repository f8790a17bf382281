// Closures that sanitize: the closure strips autodiff with `inner` before its Disabled sink, or the chain strips
// every element before the captured-Disabled closure runs
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn frozen_scores(rows: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = ad_device();
    let freeze_and_score = |t: DispatchTensor| {
        let t = <Dispatch as AutodiffBackend>::inner(t);
        dispatch::q_matmul(t, q.clone(), Ctx::Disabled)
    };
    rows.into_iter().map(|r| Dispatch::float_from_data(r, &ad)).map(freeze_and_score).collect()
}

pub fn stripped_first(xs: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = ad_device();
    let apply = |t: DispatchTensor| dispatch::q_matmul(t, q.clone(), Ctx::Disabled);
    xs.into_iter()
        .map(|r| Dispatch::float_from_data(r, &ad))
        .map(|t| <Dispatch as AutodiffBackend>::inner(t))
        .map(apply)
        .collect()
}
