// B9: the context is a private struct field set once in `new` (Disabled) and read in `forward`; the hidden state is autodiff
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct QLayer {
    pub q_w: DispatchTensor,
}

pub struct Stack {
    layers: Vec<QLayer>,
    ctx: Ctx,
}

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

impl Stack {
    pub fn new(layers: Vec<QLayer>) -> Self {
        Self { layers, ctx: Ctx::Disabled }
    }

    pub fn forward(&self, init: TensorData) -> DispatchTensor {
        let mut h = Dispatch::float_from_data(init, &ad_device());
        for layer in &self.layers {
            h = dispatch::q_matmul(h, layer.q_w.clone(), self.ctx); //~ BD001
            h = Dispatch::float_exp(h);
        }
        h
    }
}
