// B12 (checkpointing era): `checkpointing: None` next to an Autodiff kind -> "Should only be called with autodiff."
//@ era: checkpointing
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy, TensorPrimitive,
};
use burn::tensor::TensorData;

pub fn untracked_lhs(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        GradientCheckpointingStrategy::Balanced,
    );
    let t = Dispatch::float_from_data(data, &dev);
    let lhs = DispatchTensor {
        kind: t.kind,
        checkpointing: None, //~ BD001
    };
    match Dispatch::q_matmul(TensorPrimitive::Float(lhs), TensorPrimitive::QFloat(q)) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!(),
    }
}
