// Fix choice: strip autodiff at the seed call instead of enabling the context (unsafe fix)
//@ fix-choice: strip-autodiff
use burn::backend::{
    AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub fn eval_head(q: DispatchTensor, data: TensorData) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x = Dispatch::float_from_data(data, &dev);
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
}
