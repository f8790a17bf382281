// Names (clean twin of n05): the crate root re-exports `flex_plain as train_device`, and the chain
// `frozen_project` -> `internal::frozen_head` -> `heads::project_derived` derives the context from its parameter.
// `legacy` holds an autodiff `train_device` and a Disabled `frozen_project`, which no path below names.
//@ clean
mod internal {
    pub mod devices {
        use burn::backend::DispatchDevice;

        pub fn flex_autodiff() -> DispatchDevice {
            DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
        }

        pub fn flex_plain() -> DispatchDevice {
            DispatchDevice::Flex(Default::default())
        }
    }

    pub mod heads {
        use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};

        pub fn project_disabled(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
            dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
        }

        pub fn project_derived(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
            let ctx = x.autodiff;
            dispatch::q_matmul(x, w.clone(), ctx)
        }
    }

    pub use self::heads::project_derived as frozen_head;
}

mod legacy {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

    pub fn train_device() -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }

    pub fn frozen_project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
    }
}

pub use crate::internal::devices::flex_plain as train_device;
pub use crate::internal::frozen_head as frozen_project;

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::{frozen_project, train_device};

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &train_device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }

    pub fn score_rooted(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &crate::train_device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }

    pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        frozen_project(x, &q)
    }
}
