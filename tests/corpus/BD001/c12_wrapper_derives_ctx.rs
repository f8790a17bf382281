// C12: the wrapper derives the context from its own parameter, so an autodiff argument is safe (interprocedural)
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    let ctx = if is_autodiff(&x) { Ctx::Enabled(Gcs::Disabled) } else { Ctx::Disabled };
    dispatch::q_matmul(x, w.clone(), ctx)
}

pub fn step(d: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let h = project(Dispatch::float_from_data(d.clone(), &ad), &q_w);
    let p = project(Dispatch::float_from_data(d, &DispatchDevice::Flex(Default::default())), &q_w);
    Dispatch::float_add(h, p)
}
