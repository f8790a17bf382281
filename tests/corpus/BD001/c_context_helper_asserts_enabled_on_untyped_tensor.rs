// Regression (seen in burn-dispatch's own `int_inner`-style helpers): a helper asserts the context
// is enabled and returns `Disabled`; the tensor is an int/bool/quantized primitive whose kind is
// never `Autodiff(..)`, so clearing only the context field is correct. Must stay quiet.
//@ clean
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};

fn disable_context(context: Ctx) -> Ctx {
    assert!(matches!(context, Ctx::Enabled(_)), "tensor is already on the inner backend");
    Ctx::Disabled
}

pub fn int_to_inner(tensor: DispatchTensor) -> DispatchTensor {
    let mut tensor = tensor;
    tensor.autodiff = disable_context(tensor.autodiff);
    tensor
}

pub fn bool_to_inner(mut tensor: DispatchTensor) -> DispatchTensor {
    tensor.autodiff = disable_context(tensor.autodiff);
    tensor
}
