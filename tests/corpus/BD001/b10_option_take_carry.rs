// B10 with `Option::take`: `prime` stores an autodiff tensor in `self.carry`; `step` takes it out into a Disabled sink
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
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
        dispatch::q_matmul(h, self.q_w.clone(), Ctx::Disabled) //~ BD001
    }

    pub fn try_step(&mut self) -> Option<DispatchTensor> {
        let h = self.carry.take()?;
        Some(dispatch::q_matmul(h, self.q_w.clone(), Ctx::Disabled)) //~ BD001
    }
}
