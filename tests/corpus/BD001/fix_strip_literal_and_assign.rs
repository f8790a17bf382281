// Fix choice: a half-converted hand-built tensor becomes a real conversion with `inner`
//@ fix-choice: strip-autodiff
use burn::backend::{
    AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn as_constant(data: TensorData) -> DispatchTensor {
    let t = Dispatch::float_from_data(data, &ad_device());
    DispatchTensor {
        kind: t.kind,
        autodiff: Ctx::Disabled, //~ BD001
    }
}

pub fn freeze_in_place(data: TensorData) -> DispatchTensor {
    let mut d = Dispatch::float_from_data(data, &ad_device());
    d.autodiff = Ctx::Disabled; //~ BD001
    d
}
