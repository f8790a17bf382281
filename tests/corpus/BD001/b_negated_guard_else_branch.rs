// Negated guards, wrong branch: after `if !x.is_autodiff() { .. } else { .. }` the `else` branch holds an
// autodiff tensor, yet it also uses Disabled (copy-pasted from the plain branch)
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    DispatchTensorKind,
};
use burn::tensor::{Tensor, TensorData};

fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

pub fn score(x: Tensor<2>, q: DispatchTensor) -> DispatchTensor {
    if !x.is_autodiff() {
        dispatch::q_matmul(x.into_dispatch(), q, Ctx::Disabled)
    } else {
        dispatch::q_matmul(x.into_dispatch(), q, Ctx::Disabled) //~ BD001
    }
}

pub fn to_constant(train: bool, data: TensorData) -> DispatchTensor {
    let flex = DispatchDevice::Flex(Default::default());
    let dev = if train { DispatchDevice::autodiff(flex) } else { flex };
    let x = Dispatch::float_from_data(data, &dev);
    if !is_autodiff(&x) {
        x
    } else {
        DispatchTensor {
            kind: x.kind,
            autodiff: Ctx::Disabled, //~ BD001
        }
    }
}
