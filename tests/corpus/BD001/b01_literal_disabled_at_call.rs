// B1: a tensor created on an autodiff device (plus require_grad) reaches the seed sink with a literal `Disabled` context
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn score(q_w: DispatchTensor, data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let x = Dispatch::float_set_require_grad(x, true);
    dispatch::q_matmul(x, q_w, Ctx::Disabled) //~ BD001
}

pub fn score_rows(q_w: DispatchTensor, rows: TensorData) -> DispatchTensor {
    let feats = Dispatch::float_from_data(rows, &ad_device());
    crate::dispatch::q_matmul( //~ BD001
        feats,
        q_w,
        Ctx::Disabled,
    )
}
