// BD005 clean across methods: the field holds the INNER tensor, so lifting it with `from_inner` is the
// documented round trip; the closure lifts plain elements only
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

pub struct Probe {
    frozen: DispatchTensor,
}

impl Probe {
    pub fn new(data: TensorData) -> Self {
        let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let h = Dispatch::float_from_data(data, &ad);
        Self { frozen: <Dispatch as AutodiffBackend>::inner(h) }
    }

    pub fn lift(&self) -> DispatchTensor {
        <Dispatch as AutodiffBackend>::from_inner(self.frozen.clone())
    }
}

pub fn lift_all(rows: Vec<TensorData>) -> Vec<DispatchTensor> {
    let plain = DispatchDevice::Flex(Default::default());
    let xs: Vec<DispatchTensor> = rows.into_iter().map(|r| Dispatch::float_from_data(r, &plain)).collect();
    xs.into_iter().map(|t| <Dispatch as AutodiffBackend>::from_inner(t)).collect()
}
