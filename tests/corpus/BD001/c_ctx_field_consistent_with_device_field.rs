// B9/B2 fixed: fields set in `new` agree with each other -- the autodiff device pairs with an Enabled context field,
// and the inference device (the inner device) with Disabled
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct QLayer {
    pub q_w: DispatchTensor,
}

pub struct Stack {
    layers: Vec<QLayer>,
    train_device: DispatchDevice,
    eval_device: DispatchDevice,
    train_ctx: Ctx,
}

impl Stack {
    pub fn new(layers: Vec<QLayer>, strategy: Gcs) -> Self {
        let base = DispatchDevice::Flex(Default::default());
        Self {
            layers,
            train_device: DispatchDevice::autodiff_with_gradient_checkpointing(base.clone(), strategy),
            eval_device: base,
            train_ctx: Ctx::Enabled(strategy),
        }
    }

    pub fn forward(&self, init: TensorData) -> DispatchTensor {
        let mut h = Dispatch::float_from_data(init, &self.train_device);
        for layer in &self.layers {
            h = dispatch::q_matmul(h, layer.q_w.clone(), self.train_ctx);
        }
        h
    }

    pub fn evaluate(&self, init: TensorData) -> DispatchTensor {
        let mut h = Dispatch::float_from_data(init, &self.eval_device);
        for layer in &self.layers {
            h = dispatch::q_matmul(h, layer.q_w.clone(), Ctx::Disabled);
        }
        h
    }
}
