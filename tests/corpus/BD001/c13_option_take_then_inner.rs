// C13 with `Option::take`: the carried autodiff state is stripped with `inner` right after `take()`
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Decoder {
    device: DispatchDevice,
    q_w: DispatchTensor,
    carry: Option<DispatchTensor>,
}

impl Decoder {
    pub fn new(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { device: DispatchDevice::autodiff(base), q_w, carry: None }
    }

    pub fn prime(&mut self, data: TensorData) {
        self.carry = Some(Dispatch::float_from_data(data, &self.device));
    }

    pub fn step(&mut self) -> DispatchTensor {
        let h = self.carry.take().expect("call prime first");
        let h = <Dispatch as AutodiffBackend>::inner(h);
        dispatch::q_matmul(h, self.q_w.clone(), Ctx::Disabled)
    }

    pub fn step_tracked(&mut self) -> Option<DispatchTensor> {
        let h = self.carry.take()?;
        let ctx = h.autodiff;
        Some(dispatch::q_matmul(h, self.q_w.clone(), ctx))
    }
}
