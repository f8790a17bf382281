// Near miss: the buggy call appears only in comments, a doc example and string literals; the live code sanitizes first
//@ clean
use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
    DispatchTensor,
};
use burn::tensor::TensorData;

const BAD_EXAMPLE: &str = "dispatch::q_matmul(x_ad, q, Ctx::Disabled)";
const BAD_LITERAL: &str = r#"DispatchTensor { kind: x_ad.kind, autodiff: Ctx::Disabled }"#;

/// Quantized scores for evaluation.
///
/// Do not write:
///
/// ```ignore
/// let out = dispatch::q_matmul(autodiff_lhs, q_rhs, DispatchAutodiffContext::Disabled);
/// ```
pub fn eval_scores(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let x_ad = Dispatch::float_from_data(data, &ad);
    // let out = dispatch::q_matmul(x_ad.clone(), q.clone(), Ctx::Disabled);
    /* x_ad.autodiff = Ctx::Disabled; */
    log::debug!("avoid {BAD_EXAMPLE} and {BAD_LITERAL}");
    let x = <Dispatch as AutodiffBackend>::inner(x_ad);
    dispatch::q_matmul(x, q, Ctx::Disabled)
}
