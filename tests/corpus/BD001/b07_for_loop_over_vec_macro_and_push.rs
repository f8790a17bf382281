// B7/B9 with local vectors: `for x in xs` over a `vec![..]` of autodiff tensors, and `iter().map(..)` over a `Vec`
// filled with `push`
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn heads(a: TensorData, b: TensorData, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = ad_device();
    let xs = vec![Dispatch::float_from_data(a, &ad), Dispatch::float_from_data(b, &ad)];
    let mut ys = Vec::new();
    for x in xs {
        ys.push(dispatch::q_matmul(x, q.clone(), Ctx::Disabled)); //~ BD001
    }
    ys
}

pub fn heads_by_ref(a: TensorData, b: TensorData, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = ad_device();
    let mut xs = Vec::new();
    xs.push(Dispatch::float_from_data(a, &ad));
    xs.push(Dispatch::float_exp(Dispatch::float_from_data(b, &ad)));
    xs.iter().map(|t| dispatch::q_matmul(t.clone(), q.clone(), Ctx::Disabled)).collect() //~ BD001
}
