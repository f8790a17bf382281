// B3/B12 (checkpointing era): `checkpointing: Default::default()` is `None` (untracked) for an Autodiff kind
//@ era: checkpointing
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

pub struct Snapshot {
    pub value: DispatchTensor,
    pub step: usize,
}

pub fn snapshot(data: TensorData, step: usize) -> Snapshot {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let live = Dispatch::float_from_data(data, &device);
    let copy = live.clone();
    Snapshot {
        value: DispatchTensor {
            kind: copy.kind,
            checkpointing: Default::default(), //~ BD001
        },
        step,
    }
}
