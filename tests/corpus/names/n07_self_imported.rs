// Names: `self::name` finds a name the module imported (rustc: `self::` paths see `use` imports too), also
// through a rename and in a nested `self::` path to a child module's import. `serving` and `training` define the
// same names; `model` imports `training`'s.
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

    use crate::training::device;
    use crate::training::context as head_context;

    mod inner {
        pub use crate::training::device as input_device;
    }

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self::device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }

    pub fn score_ctx(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        dispatch::q_matmul(x, q, self::head_context()) //~ BD001
    }

    pub fn score_inner(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &self::inner::input_device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }
}
