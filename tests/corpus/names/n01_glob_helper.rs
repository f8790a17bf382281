// Names: a module imports its helpers with a glob (`use crate::common::*;`). `common` and `serving` define
// the same three helper names; the glob brings in `common`'s, whose device is autodiff, whose context is
// Disabled and whose wrapper sends its parameter to the sink with Disabled.
mod common {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

    pub fn input_device() -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }

    pub fn frozen_ctx() -> Ctx {
        Ctx::Disabled
    }

    pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
    }
}

mod serving {
    use burn::backend::{
        DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
        GradientCheckpointingStrategy as Gcs,
    };

    pub fn input_device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    pub fn frozen_ctx() -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }

    pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        let ctx = x.autodiff;
        dispatch::q_matmul(x, w.clone(), ctx)
    }
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::common::*;

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &input_device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }

    pub fn score_frozen(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        dispatch::q_matmul(x, q, frozen_ctx()) //~ BD001
    }

    pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_exp(Dispatch::float_from_data(data, &dev));
        project(x, &q) //~ BD001
    }
}
