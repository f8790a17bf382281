// Fix (checkpointing era): `checkpointing: None` on an autodiff kind becomes `Some(strategy)`
//@ era: checkpointing
use burn::backend::{
    Dispatch, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub fn relabel(data: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        Gcs::Balanced,
    );
    let t = Dispatch::float_from_data(data, &dev);
    DispatchTensor {
        kind: t.kind,
        checkpointing: None, //~ BD001
    }
}
