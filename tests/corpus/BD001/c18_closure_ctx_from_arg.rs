// C18: a closure that derives the context from its own argument (closures are not analysed yet; must stay quiet)
//@ clean
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

pub fn batch_scores(rows: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let xs_ad: Vec<DispatchTensor> = rows
        .into_iter()
        .map(|r| Dispatch::float_from_data(r, &ad))
        .collect();
    let apply = |t: DispatchTensor| {
        let c = t.autodiff;
        dispatch::q_matmul(t, q.clone(), c)
    };
    xs_ad.into_iter().map(apply).collect()
}
