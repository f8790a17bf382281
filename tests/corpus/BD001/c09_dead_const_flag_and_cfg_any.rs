// C9: the buggy call only appears under a `const` false flag, `if false`, and a `#[cfg(any())]` item
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

const QUANT_EVAL_EXPERIMENT: bool = false;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn train_forward(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x_ad = Dispatch::float_from_data(data, &ad_device());
    if QUANT_EVAL_EXPERIMENT {
        let _ = dispatch::q_matmul(x_ad.clone(), q.clone(), Ctx::Disabled);
    }
    if false {
        let _ = dispatch::q_matmul(x_ad.clone(), q.clone(), Ctx::default());
    }
    Dispatch::float_exp(x_ad)
}

#[cfg(any())]
fn never_compiled(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x_ad = Dispatch::float_from_data(data, &ad_device());
    dispatch::q_matmul(x_ad, q, Ctx::Disabled)
}
