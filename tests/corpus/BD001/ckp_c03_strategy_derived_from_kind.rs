// C3 (checkpointing era): the checkpointing field is derived from the KIND (not from `t.checkpointing`), with `Some(strategy)`
//@ era: checkpointing
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor, DispatchTensorKind,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

pub fn rebuild(t: DispatchTensor) -> DispatchTensor {
    let checkpointing = if is_autodiff(&t) { Some(t.checkpointing.unwrap_or_default()) } else { None };
    DispatchTensor { kind: t.kind, checkpointing }
}

pub fn tracked_copy(data: TensorData) -> (DispatchTensor, DispatchTensor) {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        Gcs::Balanced,
    );
    let t = Dispatch::float_from_data(data, &dev);
    let copy = DispatchTensor { kind: t.kind.clone(), checkpointing: Some(Gcs::Balanced) };
    (rebuild(t), copy)
}
