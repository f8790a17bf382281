// Context era: `<Dispatch as AutodiffBackend>::inner` still asserts an autodiff tensor ("Requires autodiff tensor.")
//@ era: context
use burn::backend::{ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

pub fn constant(data: TensorData) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let t = Dispatch::float_from_data(data, &flex);
    <Dispatch as AutodiffBackend>::inner(t) //~ BD008
}
