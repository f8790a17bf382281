// B12: a same-file helper hand-builds `DispatchTensor { kind: t.kind, autodiff: Disabled }`; the autodiff argument is reported at the call
use burn::backend::{
    ops::{FloatTensorOps, QTensorOps},
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor, TensorPrimitive,
};
use burn::tensor::TensorData;

fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

/// "Drops the graph" by clearing the context; the kind is left as it was.
fn drop_graph(t: DispatchTensor) -> DispatchTensor {
    DispatchTensor { kind: t.kind, autodiff: Ctx::Disabled }
}

pub fn frozen_logits(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x_ad = Dispatch::float_from_data(data, &ad_device());
    let frozen = drop_graph(x_ad); //~ BD001
    match Dispatch::q_matmul(TensorPrimitive::Float(frozen), TensorPrimitive::QFloat(q)) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!(),
    }
}
