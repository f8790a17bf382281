// Guards: `t.is_autodiff()`, `t.device().is_autodiff()` and `Dispatch::ad_enabled(&dev)` keep every Disabled sink on a plain path
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Backend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor, GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::{Tensor, TensorData};

pub fn to_constant(x: Tensor<2>) -> DispatchTensor {
    if x.is_autodiff() {
        x.without_autodiff().into_dispatch()
    } else {
        let d = x.into_dispatch();
        DispatchTensor { kind: d.kind, autodiff: Ctx::Disabled }
    }
}

pub fn to_constant_by_device(x: Tensor<2>) -> DispatchTensor {
    if !x.device().is_autodiff() {
        let d = x.into_dispatch();
        return DispatchTensor { kind: d.kind, autodiff: Ctx::Disabled };
    }
    x.without_autodiff().into_dispatch()
}

pub fn head(dev: DispatchDevice, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    if Dispatch::ad_enabled(&dev) {
        let x = Dispatch::float_from_data(data, &dev);
        dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Disabled))
    } else {
        let x = Dispatch::float_from_data(data, &dev);
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }
}

pub fn caller(x_ad: Tensor<2>) -> DispatchTensor {
    let x_ad = x_ad.autodiff();
    to_constant(x_ad)
}
