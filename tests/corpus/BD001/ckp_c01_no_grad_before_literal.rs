// C1/C15 (checkpointing era): `no_grad()` and `<Dispatch as AutodiffBackend>::inner` before `checkpointing: None`
//@ era: checkpointing
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

pub fn constant_copy() -> DispatchTensor {
    let device = Device::default().autodiff();
    let x = Tensor::<2>::random([4, 4], Distribution::Default, &device);
    let d = x.no_grad().into_dispatch();
    DispatchTensor { kind: d.kind, checkpointing: None }
}

pub fn inner_copy(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let t = Dispatch::float_from_data(data, &ad);
    let t = <Dispatch as AutodiffBackend>::inner(t);
    DispatchTensor {
        kind: t.kind,
        checkpointing: None,
    }
}
