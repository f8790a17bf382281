// Names (clean twin of n02): `head` is nested in `model` and globs `super::*`; here `model`'s helpers are the
// correct ones (plain device, an Enabled context imported under a rename, a wrapper that derives the context)
// and the crate root holds the same names with the wrong bodies, which `head` cannot see.
//@ clean
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

fn train_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

fn head_ctx() -> Ctx {
    Ctx::Disabled
}

fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
}

mod contexts {
    use burn::backend::{DispatchAutodiffContext as Ctx, GradientCheckpointingStrategy as Gcs};

    pub fn tracked() -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::contexts::tracked as head_ctx;

    fn train_device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        let ctx = x.autodiff;
        dispatch::q_matmul(x, w.clone(), ctx)
    }

    pub mod head {
        use super::*;

        pub fn forward(data: TensorData, q: DispatchTensor) -> DispatchTensor {
            let x = Dispatch::float_from_data(data, &train_device());
            dispatch::q_matmul(x, q, Ctx::Disabled)
        }

        pub fn forward_ctx(data: TensorData, q: DispatchTensor) -> DispatchTensor {
            let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
            let x = Dispatch::float_from_data(data, &dev);
            dispatch::q_matmul(x, q, head_ctx())
        }

        pub fn forward_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
            let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
            let x = Dispatch::float_from_data(data, &dev);
            project(x, &q)
        }
    }
}
