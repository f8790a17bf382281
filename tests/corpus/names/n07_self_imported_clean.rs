// Names (clean twin of n07): `model` imports `serving`'s helpers (plain device, Enabled context) and calls them
// as `self::device()`, `self::head_context()` and `self::inner::input_device()`; `training` has the same names.
//@ clean
mod training {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};

    pub fn device() -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }

    pub fn context() -> Ctx {
        Ctx::Disabled
    }
}

mod serving {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, GradientCheckpointingStrategy as Gcs};

    pub fn device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    pub fn context() -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::serving::device;
    use crate::serving::context as head_context;

    mod inner {
        pub use crate::serving::device as input_device;
    }

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self::device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }

    pub fn score_ctx(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        dispatch::q_matmul(x, q, self::head_context())
    }

    pub fn score_inner(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self::inner::input_device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }
}
