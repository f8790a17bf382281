// B5: an autodiff tensor stored in a `Batch` literal; `eval` sends the struct parameter's field to the sink (report at the call)
use burn::backend::{
    ops::{FloatTensorOps, IntTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
};
use burn::tensor::TensorData;

struct Batch {
    features: DispatchTensor,
    labels: DispatchTensor,
}

fn eval(batch: Batch, q: DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(batch.features, q, Ctx::Disabled)
}

pub fn validate(f: TensorData, l: TensorData, q: DispatchTensor) -> DispatchTensor {
    let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let batch = Batch {
        features: Dispatch::float_from_data(f, &dev),
        labels: Dispatch::int_from_data(l, &dev),
    };
    eval(batch, q) //~ BD001
}
