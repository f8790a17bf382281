// C18: closures derive the context from their own argument (field copy or kind guard), used with `map(apply)`,
// a direct call and `for_each`
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

pub fn batch_scores(rows: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let xs: Vec<DispatchTensor> = rows.into_iter().map(|r| Dispatch::float_from_data(r, &ad)).collect();
    let apply = |t: DispatchTensor| {
        let ctx = if is_autodiff(&t) { Ctx::Enabled(Gcs::Disabled) } else { Ctx::Disabled };
        dispatch::q_matmul(t, q.clone(), ctx)
    };
    let first = apply(Dispatch::float_from_data(TensorData::from([1.0f32]), &ad));
    let mut ys: Vec<DispatchTensor> = xs.into_iter().map(apply).collect();
    ys.push(first);
    ys
}

pub fn log_scores(xs: Vec<DispatchTensor>, q: DispatchTensor, out: &mut Vec<DispatchTensor>) {
    xs.into_iter().for_each(|x| {
        let ctx = x.autodiff;
        out.push(dispatch::q_matmul(x, q.clone(), ctx));
    });
}
