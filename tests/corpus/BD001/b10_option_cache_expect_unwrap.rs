// B10 (single-function variant): an autodiff key cached in an `Option` comes back through `expect`/`unwrap` into Disabled sinks
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn attend(x: TensorData, wk: DispatchTensor, q_w: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(x, &ad_device());
    let k = Dispatch::float_matmul(x, wk);
    let k_cache: Option<DispatchTensor> = Some(k.clone());

    let first = dispatch::q_matmul(k_cache.clone().expect("warm cache"), q_w.clone(), Ctx::Disabled); //~ BD001
    let second = dispatch::q_matmul(k_cache.unwrap(), q_w, Ctx::Disabled); //~ BD001
    Dispatch::float_add(first, second)
}
