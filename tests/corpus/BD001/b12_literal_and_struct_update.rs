// B12: hand-built literals clear the context of an autodiff float (field init, struct update, one-line literal annotated from the next line)
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn strip_tracking(data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    let y = Dispatch::float_exp(x);
    DispatchTensor {
        kind: y.kind,
        autodiff: DispatchAutodiffContext::Disabled, //~ BD001
    }
}

pub fn strip_with_update(data: TensorData) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &ad_device());
    DispatchTensor { autodiff: DispatchAutodiffContext::Disabled, ..x } //~ BD001
}

pub fn strip_one_liner(data: TensorData) -> DispatchTensor {
    let t = Dispatch::float_from_data(data, &ad_device());
    let constant = DispatchTensor { kind: t.kind, autodiff: DispatchAutodiffContext::Disabled };
    //~^ BD001
    constant
}
