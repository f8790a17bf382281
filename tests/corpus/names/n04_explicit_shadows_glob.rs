// Names: an explicit import shadows a glob import of the same name (rustc: explicit `use` and items declared
// in the module win over glob-imported names). `eval` and `train` define the same helpers; `model` globs
// `eval` but imports `train::input_device` and `train::step_ctx` explicitly, and `local` declares its own.
mod train {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};

    pub fn input_device() -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }

    pub fn step_ctx() -> Ctx {
        Ctx::Disabled
    }
}

mod eval {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, GradientCheckpointingStrategy as Gcs};

    pub fn input_device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    pub fn step_ctx() -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::eval::*;
    use crate::train::{input_device, step_ctx};

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &input_device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }

    pub fn score_ctx(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        dispatch::q_matmul(x, q, step_ctx()) //~ BD001
    }
}

mod local {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::eval::*;

    fn input_device() -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &input_device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }
}
