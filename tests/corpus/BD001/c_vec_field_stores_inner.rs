// Vec field, sanitized: `record` pushes the INNER tensor of an autodiff activation, so `pop`, `[i]` and `iter()`
// elsewhere may use Disabled
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Replay {
    device: DispatchDevice,
    buf: Vec<DispatchTensor>,
    q_w: DispatchTensor,
}

impl Replay {
    pub fn new(base: DispatchDevice, q_w: DispatchTensor) -> Self {
        Self { device: DispatchDevice::autodiff(base), buf: Vec::new(), q_w }
    }

    pub fn record(&mut self, data: TensorData) {
        let x = Dispatch::float_from_data(data, &self.device);
        self.buf.push(<Dispatch as AutodiffBackend>::inner(x));
    }

    pub fn replay_last(&mut self) -> Option<DispatchTensor> {
        let x = self.buf.pop()?;
        Some(dispatch::q_matmul(x, self.q_w.clone(), Ctx::Disabled))
    }

    pub fn replay_first(&self) -> DispatchTensor {
        dispatch::q_matmul(self.buf[0].clone(), self.q_w.clone(), Ctx::Disabled)
    }

    pub fn replay_all(&self) -> Vec<DispatchTensor> {
        let q = &self.q_w;
        self.buf.iter().map(|x| dispatch::q_matmul(x.clone(), q.clone(), Ctx::Disabled)).collect()
    }
}
