// Tuple-struct fields, clean: `Frozen.0` is built from `inner`, and `Tracked` pairs its autodiff tensor with
// the tensor's own context in `self.1`
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub struct Frozen(DispatchTensor);

impl Frozen {
    pub fn capture(data: TensorData) -> Self {
        let t = Dispatch::float_from_data(data, &ad_device());
        Frozen(<Dispatch as AutodiffBackend>::inner(t))
    }

    pub fn project(&self, q: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(self.0.clone(), q, Ctx::Disabled)
    }
}

pub struct Tracked(DispatchTensor, Ctx);

impl Tracked {
    pub fn capture(data: TensorData) -> Self {
        let t = Dispatch::float_from_data(data, &ad_device());
        let ctx = t.autodiff;
        Tracked(t, ctx)
    }

    pub fn project(&self, q: DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(self.0.clone(), q, self.1)
    }
}
