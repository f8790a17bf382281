// B6 + B14 (checkpointing era): a same-file `strip` helper writes `checkpointing: None`; it is fed a detached autodiff tensor
//@ era: checkpointing
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

fn strip(t: DispatchTensor) -> DispatchTensor {
    DispatchTensor {
        kind: t.kind,
        checkpointing: None,
    }
}

pub fn target_network(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let online = Dispatch::float_from_data(data, &ad);
    let target = Dispatch::float_detach(online);
    strip(target) //~ BD001
}
