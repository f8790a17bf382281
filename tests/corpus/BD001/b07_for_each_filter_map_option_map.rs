// B7 with inline closures: `for_each`, `filter_map` and `Option::map` run a Disabled sink on autodiff elements;
// an inline closure's finding is at the seed call inside it
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn log_scores(rows: Vec<TensorData>, q: DispatchTensor, out: &mut Vec<DispatchTensor>) {
    let ad = ad_device();
    rows.into_iter()
        .map(|r| Dispatch::float_from_data(r, &ad))
        .for_each(|x| out.push(dispatch::q_matmul(x, q.clone(), Ctx::Disabled))); //~ BD001
}

pub fn masked_scores(rows: Vec<Option<TensorData>>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = ad_device();
    rows.into_iter()
        .filter_map(|r| r.map(|d| Dispatch::float_from_data(d, &ad)))
        .map(|x| dispatch::q_matmul(x, q.clone(), Ctx::default())) //~ BD001
        .collect()
}

pub fn cached_score(data: TensorData, q: DispatchTensor) -> Option<DispatchTensor> {
    let cache = Some(Dispatch::float_from_data(data, &ad_device()));
    cache.map(|k| dispatch::q_matmul(k, q, Ctx::Disabled)) //~ BD001
}
