// B19 across methods and closures: `new` builds the bias on the plain device; `marked_bias` sets `autodiff =
// Enabled(..)` on a copy of the field, and a closure relabels plain elements as Enabled
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct Layer {
    bias: DispatchTensor,
}

impl Layer {
    pub fn new(bias: TensorData) -> Self {
        Self { bias: Dispatch::float_from_data(bias, &DispatchDevice::Flex(Default::default())) }
    }

    pub fn marked_bias(&self) -> DispatchTensor {
        let mut t = self.bias.clone();
        t.autodiff = Ctx::Enabled(Gcs::Disabled); //~ BD002
        Dispatch::float_exp(t)
    }
}

pub fn mark_all(rows: Vec<TensorData>) -> Vec<DispatchTensor> {
    let plain = DispatchDevice::Flex(Default::default());
    rows.into_iter()
        .map(|r| Dispatch::float_from_data(r, &plain))
        .map(|t| DispatchTensor { kind: t.kind, autodiff: Ctx::Enabled(Gcs::Disabled) }) //~ BD002
        .map(Dispatch::float_exp)
        .collect()
}
