// BD005 across methods and closures (context era): `new` stores an autodiff activation; `lift` passes the field to
// `from_inner` again, and a closure mapped over autodiff elements does the same
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub struct Probe {
    h: DispatchTensor,
}

impl Probe {
    pub fn new(data: TensorData) -> Self {
        Self { h: Dispatch::float_from_data(data, &ad_device()) }
    }

    pub fn lift(&self) -> DispatchTensor {
        <Dispatch as AutodiffBackend>::from_inner(self.h.clone()) //~ BD005
    }
}

pub fn lift_all(rows: Vec<TensorData>) -> Vec<DispatchTensor> {
    let ad = ad_device();
    let xs: Vec<DispatchTensor> = rows.into_iter().map(|r| Dispatch::float_from_data(r, &ad)).collect();
    xs.into_iter().map(|t| <Dispatch as AutodiffBackend>::from_inner(t)).collect() //~ BD005
}
