// Names (clean twin of n04): `model` globs `train` but imports `eval::input_device` and `eval::step_ctx`
// explicitly, and `local` declares its own plain `input_device`; the explicit names win over the glob.
//@ clean
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

    use crate::train::*;
    use crate::eval::{input_device, step_ctx};

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &input_device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }

    pub fn score_ctx(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        dispatch::q_matmul(x, q, step_ctx())
    }
}

mod local {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::train::*;

    fn input_device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &input_device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }
}
