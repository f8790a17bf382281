// BD002 clean across methods and closures: the field and the mapped elements are autodiff, so Enabled matches
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub struct Layer {
    bias: DispatchTensor,
}

impl Layer {
    pub fn new(bias: TensorData) -> Self {
        Self { bias: Dispatch::float_from_data(bias, &ad_device()) }
    }

    pub fn marked_bias(&self) -> DispatchTensor {
        let mut t = self.bias.clone();
        t.autodiff = Ctx::Enabled(Gcs::Disabled);
        Dispatch::float_exp(t)
    }
}

pub fn mark_all(rows: Vec<TensorData>) -> Vec<DispatchTensor> {
    let ad = ad_device();
    rows.into_iter()
        .map(|r| Dispatch::float_from_data(r, &ad))
        .map(|t| DispatchTensor { kind: t.kind, autodiff: Ctx::Enabled(Gcs::Disabled) })
        .map(Dispatch::float_exp)
        .collect()
}
