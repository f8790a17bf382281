// Names: `use super::*` in a nested inline module brings in the parent module's private helpers and the
// parent's own imports (rustc: a glob imports every name visible to the importer). The crate root defines
// the same helper names the other way round; `head` must see `model`'s, not the root's.
use burn::backend::{
    DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy as Gcs,
};

fn train_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

fn head_ctx() -> Ctx {
    Ctx::Enabled(Gcs::Disabled)
}

fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    let ctx = x.autodiff;
    dispatch::q_matmul(x, w.clone(), ctx)
}

mod contexts {
    use burn::backend::DispatchAutodiffContext as Ctx;

    pub fn frozen() -> Ctx {
        Ctx::Disabled
    }
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::contexts::frozen as head_ctx;

    fn train_device() -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }

    fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
    }

    pub mod head {
        use super::*;

        pub fn forward(data: TensorData, q: DispatchTensor) -> DispatchTensor {
            let x = Dispatch::float_from_data(data, &train_device());
            dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
        }

        pub fn forward_ctx(data: TensorData, q: DispatchTensor) -> DispatchTensor {
            let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
            let x = Dispatch::float_from_data(data, &dev);
            dispatch::q_matmul(x, q, head_ctx()) //~ BD001
        }

        pub fn forward_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
            let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
            let x = Dispatch::float_from_data(data, &dev);
            project(x, &q) //~ BD001
        }
    }
}
