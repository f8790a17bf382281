// Fields across methods, tuple structs: `Activation::record` stores an autodiff tensor in `self.0`, and
// `Frozen::new` pairs it with a Disabled context in `self.1`; the other methods read `self.0`/`self.1`
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub struct Activation(DispatchTensor);

impl Activation {
    pub fn record(data: TensorData) -> Self {
        Self(Dispatch::float_from_data(data, &ad_device()))
    }

    pub fn project(&self, q: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(self.0.clone(), q, Ctx::Disabled) //~ BD001
    }
}

pub struct Frozen(DispatchTensor, Ctx);

impl Frozen {
    pub fn new(act: Activation) -> Self {
        Frozen(act.0, Ctx::Disabled)
    }

    pub fn score(&self, q: DispatchTensor) -> DispatchTensor {
        // Not reported: `Frozen::new` is never called here, so what `act.0` holds is unknown
        // (a caller outside this file may pass a plain activation).
        dispatch::q_matmul(self.0.clone(), q, self.1)
    }
}
