// B18 across methods: `ctx()` reads the context of the plain `bias` field (built on the plain device in `new`),
// not of the autodiff input it is used with
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Layer {
    bias: DispatchTensor,
    q_w: DispatchTensor,
    device: DispatchDevice,
}

impl Layer {
    pub fn new(bias: TensorData, q_w: DispatchTensor) -> Self {
        let flex = DispatchDevice::Flex(Default::default());
        let bias = Dispatch::float_from_data(bias, &flex);
        Self { bias, q_w, device: DispatchDevice::autodiff(flex) }
    }

    fn ctx(&self) -> Ctx {
        self.bias.autodiff
    }

    pub fn forward(&self, data: TensorData) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self.device);
        let ctx = self.ctx();
        dispatch::q_matmul(x, self.q_w.clone(), ctx) //~ BD001
    }
}
