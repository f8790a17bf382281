// B9 fixed (checkpointing era): the field is `Some(strategy)` for the autodiff device set next to it in `new`
//@ era: checkpointing
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct Recorder {
    device: DispatchDevice,
    ckp: Option<Gcs>,
}

impl Recorder {
    pub fn new(base: DispatchDevice, strategy: Gcs) -> Self {
        Self {
            device: DispatchDevice::autodiff_with_gradient_checkpointing(base, strategy),
            ckp: Some(strategy),
        }
    }

    pub fn snapshot(&self, data: TensorData) -> DispatchTensor {
        let live = Dispatch::float_from_data(data, &self.device);
        let copy = DispatchTensor { kind: live.kind, checkpointing: self.ckp };
        Dispatch::float_exp(copy)
    }
}
