// B2: the autodiff device is a struct field set in `new`; `encode` keeps a Disabled context in a local
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Encoder {
    train_device: DispatchDevice,
    q_w: DispatchTensor,
}

impl Encoder {
    pub fn new(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { train_device: DispatchDevice::autodiff(base), q_w }
    }

    pub fn encode(&self, data: TensorData) -> DispatchTensor {
        let ctx = Ctx::Disabled;
        let x = Dispatch::float_from_data(data, &self.train_device);
        let x = Dispatch::float_mul_scalar(x, 0.5f32.into());
        dispatch::q_matmul(x, self.q_w.clone(), ctx) //~ BD001
    }

    pub fn encode_batch(&self, rows: TensorData) -> DispatchTensor {
        let device = self.train_device.clone();
        let x = Dispatch::float_from_data(rows, &device);
        dispatch::q_matmul(x, self.q_w.clone(), Ctx::default()) //~ BD001
    }
}
