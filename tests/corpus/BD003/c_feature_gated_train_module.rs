// The training code lives in `#[cfg(feature = "autodiff")] mod train`, so its `Enabled(..)` context is only
// compiled when burn has an autodiff backend, and it is paired with a tensor created on an autodiff device
// with the same checkpointing strategy. The build without the feature never sees it.
//@ build: optional
//@ clean
#[cfg(feature = "autodiff")]
mod train {
    use burn::backend::{
        ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice,
        DispatchTensor, GradientCheckpointingStrategy as Gcs,
    };
    use burn::tensor::TensorData;

    pub fn step(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let device = DispatchDevice::autodiff_with_gradient_checkpointing(
            DispatchDevice::Flex(Default::default()),
            Gcs::Balanced,
        );
        let x = Dispatch::float_from_data(data, &device);
        dispatch::q_matmul(x, q, Ctx::Enabled(Gcs::Balanced))
    }
}

pub fn describe() -> &'static str {
    if cfg!(feature = "autodiff") { "training enabled" } else { "inference only" }
}
