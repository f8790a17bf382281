// BD004 across methods and closures: the device fields set in `new` are already autodiff, and other methods wrap
// them again; a let-bound closure that wraps its argument is applied to an autodiff device
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

pub struct Trainer {
    device: DispatchDevice,
    hl_device: Device,
}

impl Trainer {
    pub fn new() -> Self {
        Self {
            device: DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())),
            hl_device: Device::default().autodiff(),
        }
    }

    pub fn balanced_device(&self) -> DispatchDevice {
        DispatchDevice::autodiff_with_gradient_checkpointing(self.device.clone(), Gcs::Balanced) //~ BD004
    }

    pub fn params(&self) -> Tensor<2> {
        // `self.hl_device.clone().autodiff()` would be fine: idempotent from 0.22.0-pre.4 on.
        let dev = Device::new(DispatchDevice::autodiff(self.device.clone())); //~ BD004
        Tensor::<2>::random([8, 8], Distribution::Default, &dev)
    }
}

pub fn warmup(data: TensorData) -> DispatchTensor {
    let wrap = |d: DispatchDevice| DispatchDevice::autodiff(d); //~ BD004
    let ad = wrap(DispatchDevice::Flex(Default::default()));
    let nested = wrap(ad.clone());
    Dispatch::float_from_data(data, &nested)
}
