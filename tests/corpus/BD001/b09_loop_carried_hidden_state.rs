// B9 (local-context variant): a loop-carried hidden state stays autodiff through float ops and meets a Disabled sink
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct QLayer {
    pub q_w: DispatchTensor,
    pub scale: f32,
}

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn forward(init: TensorData, layers: &[QLayer]) -> DispatchTensor {
    let ctx = Ctx::Disabled;
    let mut h = Dispatch::float_from_data(init, &ad_device());
    for layer in layers {
        h = Dispatch::float_mul_scalar(h, layer.scale.into());
        let y = dispatch::q_matmul(h.clone(), layer.q_w.clone(), ctx); //~ BD001
        h = Dispatch::float_add(h, y);
    }
    h
}

pub fn unrolled(init: TensorData, q: DispatchTensor, steps: usize) -> DispatchTensor {
    let mut h = Dispatch::float_from_data(init, &ad_device());
    let mut i = 0;
    while i < steps {
        h = Dispatch::float_exp(h);
        i += 1;
    }
    dispatch::q_matmul(h, q, Ctx::Disabled) //~ BD001
}
