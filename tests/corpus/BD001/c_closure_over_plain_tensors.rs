// Closures over plain tensors: a captured Disabled context is right for elements built on the plain (or inner)
// device, whether the closure is mapped, called directly or used in a `for` loop
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn eval_scores(rows: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let infer = ad_device().inner();
    let ctx = Ctx::Disabled;
    let apply = |t: DispatchTensor| dispatch::q_matmul(t, q.clone(), ctx);
    let xs: Vec<DispatchTensor> = rows.into_iter().map(|r| Dispatch::float_from_data(r, &infer)).collect();
    xs.into_iter().map(apply).collect()
}

pub fn single(row: TensorData, q: DispatchTensor) -> DispatchTensor {
    let plain = DispatchDevice::Flex(Default::default());
    let apply = |t: DispatchTensor| dispatch::q_matmul(t, q.clone(), Ctx::default());
    apply(Dispatch::float_from_data(row, &plain))
}

pub fn looped(a: TensorData, b: TensorData, q: DispatchTensor) -> Vec<DispatchTensor> {
    let plain = DispatchDevice::Flex(Default::default());
    let xs = vec![Dispatch::float_from_data(a, &plain), Dispatch::float_from_data(b, &plain)];
    let mut ys = Vec::new();
    for x in xs {
        ys.push(dispatch::q_matmul(x, q.clone(), Ctx::Disabled));
    }
    ys
}
