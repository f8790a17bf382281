// B13 (checkpointing era): `t.checkpointing = None` on an autodiff tensor, at the dispatch level and after `into_dispatch()`
//@ era: checkpointing
use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

pub fn mark_constant(data: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let mut t = Dispatch::float_from_data(data, &ad);
    t.checkpointing = None; //~ BD001
    Dispatch::float_sqrt(t)
}

pub fn frozen_logits(q_weight: Tensor<2>) -> Tensor<2> {
    let device = Device::default().autodiff();
    let x = Tensor::<2>::random([4, 16], Distribution::Default, &device);
    let mut d = x.into_dispatch();
    d.checkpointing = None; //~ BD001
    Tensor::<2>::from_dispatch(d).matmul(q_weight)
}
