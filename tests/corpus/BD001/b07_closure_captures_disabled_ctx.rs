// B7: a let-bound closure captures a Disabled context; mapping it over tensors built on an autodiff device is
// reported where the closure is applied (`.map(apply)`), like a call of a same-file wrapper (B6)
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn batch_scores(rows: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ctx = Ctx::Disabled;
    let apply = |t: DispatchTensor| dispatch::q_matmul(t, q.clone(), ctx); //~ BD001
    let xs: Vec<DispatchTensor> = rows
        .into_iter()
        .map(|r| Dispatch::float_from_data(r, &ad_device()))
        .collect();
    let ys: Vec<DispatchTensor> = xs.into_iter().map(apply).collect();
    ys
}
