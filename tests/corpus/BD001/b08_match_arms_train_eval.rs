// B8: only the `Train` arm builds the input on an autodiff device, so the Disabled sink is a path-dependent warning
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub enum Mode {
    Train,
    Eval,
}

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn plain_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

pub fn logits(mode: Mode, data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = match mode {
        Mode::Train => Dispatch::float_from_data(data, &ad_device()),
        Mode::Eval => Dispatch::float_from_data(data, &plain_device()),
    };
    dispatch::q_matmul(x, q, Ctx::Disabled) //~ WARN BD001
}
