// Suppression comments: an own-line `// burnlint: allow(BD001)` covers the next line, a trailing one
// its own line; a comment for another code does not hide BD001.
use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn acknowledged(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    // burnlint: allow(BD001)
    dispatch::q_matmul(x, q, Ctx::Disabled)
}

pub fn trailing(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x, q, Ctx::Disabled) // burnlint: allow(bd001)
}

pub fn other_code(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    // burnlint: allow(BD004)
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}
