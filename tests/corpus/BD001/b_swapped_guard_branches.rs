// C5 inverted: the branches of the kind guard are swapped, so the path where the input IS autodiff gets `Disabled`
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind,
};
use burn::tensor::TensorData;

pub enum Phase {
    Fit,
    Score,
}

pub fn head(phase: Phase, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let x = match phase {
        Phase::Fit => Dispatch::float_from_data(data, &DispatchDevice::autodiff(flex)),
        Phase::Score => Dispatch::float_from_data(data, &flex),
    };
    if let DispatchTensorKind::Autodiff(_) = &x.kind {
        // "tracked inputs go through the constant path" -- wrong way round
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    } else {
        Dispatch::float_mul_scalar(x, 0.0f32.into())
    }
}
