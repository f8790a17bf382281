// B4: autodiff flows through clone, move and transpose into a Disabled context
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::{Distribution, FloatDType, Shape};

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn project_transposed(shape: Shape, q: DispatchTensor) -> (DispatchTensor, DispatchTensor) {
    let w = Dispatch::float_random(shape, Distribution::Default, &ad_device(), FloatDType::F32);
    let a = w.clone();
    let b = a;
    let lhs = Dispatch::float_transpose(b);
    let out = dispatch::q_matmul(lhs, q, Ctx::Disabled); //~ BD001
    (w, out)
}
