// BD004 clean across methods: the autodiff field is unwrapped with `inner()` before re-wrapping, the high-level
// field is a plain device, and the closure only ever sees plain devices
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

pub struct Trainer {
    device: DispatchDevice,
    base: Device,
}

impl Trainer {
    pub fn new() -> Self {
        Self {
            device: DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())),
            base: Device::default(),
        }
    }

    pub fn balanced_device(&self) -> DispatchDevice {
        DispatchDevice::autodiff_with_gradient_checkpointing(self.device.clone().inner(), Gcs::Balanced)
    }

    pub fn params(&self) -> Tensor<2> {
        let dev = self.base.clone().autodiff();
        Tensor::<2>::random([8, 8], Distribution::Default, &dev)
    }
}

pub fn warmup(data: TensorData) -> DispatchTensor {
    let wrap = |d: DispatchDevice| DispatchDevice::autodiff(d);
    let flex = DispatchDevice::Flex(Default::default());
    let ad = wrap(flex.clone());
    let again = wrap(ad.inner());
    Dispatch::float_from_data(data, &again)
}
