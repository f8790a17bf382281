// Near miss: 2-argument `q_matmul`s (the real trait method and a user helper), not the 3-argument seed sink
//@ clean
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchDevice, DispatchTensor, TensorPrimitive,
};
use burn::tensor::TensorData;

mod cpu_ref {
    pub fn q_matmul(lhs: &[f32], rhs: &[i8]) -> Vec<f32> {
        lhs.iter().zip(rhs).map(|(a, b)| a * f32::from(*b)).collect()
    }
}

pub fn tracked_scores(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x_ad = Dispatch::float_from_data(data, &ad);
    match Dispatch::q_matmul(TensorPrimitive::Float(x_ad), TensorPrimitive::QFloat(q)) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!(),
    }
}

pub fn reference(lhs: &[f32], rhs: &[i8]) -> Vec<f32> {
    cpu_ref::q_matmul(lhs, rhs)
}
