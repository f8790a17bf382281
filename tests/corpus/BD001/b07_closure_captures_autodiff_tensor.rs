// B7 variant: the closure captures an autodiff activation `h` (not its argument) and passes it with Disabled;
// the bug is inside the closure body whatever it is called with, so it is reported at the seed call there
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub fn score_against(data: TensorData, heads: Vec<DispatchTensor>) -> Vec<DispatchTensor> {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let h = Dispatch::float_from_data(data, &ad);
    let score = |q: DispatchTensor| dispatch::q_matmul(h.clone(), q, Ctx::Disabled); //~ BD001
    heads.into_iter().map(score).collect()
}
