// B19: a float created on a plain device is "marked for tracking" by setting `autodiff = Enabled(..)` by hand
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs, TensorPrimitive,
};
use burn::tensor::TensorData;

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn tracked_scores(d: TensorData, q: DispatchTensor) -> TensorPrimitive<Dispatch> {
    let mut t = Dispatch::float_from_data(d, &plain_device());
    t.autodiff = Ctx::Enabled(Gcs::Balanced); //~ BD002
    Dispatch::q_matmul(TensorPrimitive::Float(t), TensorPrimitive::QFloat(q))
}
