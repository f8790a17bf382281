// C6: a `match` on the tensor kind picks the context; the catch-all arm only sees plain tensors
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn project(train: bool, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let base = DispatchDevice::Flex(Default::default());
    let device = if train { DispatchDevice::autodiff(base) } else { base };
    let x = Dispatch::float_from_data(data, &device);
    match x.kind {
        DispatchTensorKind::Autodiff(_) => dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled)),
        _ => dispatch::q_matmul(x, q, Ctx::Disabled),
    }
}
