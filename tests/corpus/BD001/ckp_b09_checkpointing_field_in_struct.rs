// B9 (checkpointing era): the `checkpointing` option is a struct field set to `None` in `new` and written into
// the literal of an autodiff kind in `snapshot`
//@ era: checkpointing
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
    pub fn new(base: DispatchDevice) -> Self {
        Self { device: DispatchDevice::autodiff(base), ckp: None }
    }

    pub fn snapshot(&self, data: TensorData) -> DispatchTensor {
        let live = Dispatch::float_from_data(data, &self.device);
        let copy = DispatchTensor {
            kind: live.kind,
            checkpointing: self.ckp, //~ BD001
        };
        Dispatch::float_exp(copy)
    }
}
