// Names: `pub use .. as ..` at the crate root re-exports helpers under new names, and a re-export chain
// (`pub use` of a `pub use`). `crate::train_device` is `internal::devices::flex_autodiff`; the wrapper
// `crate::frozen_project` sends its parameter to the sink with Disabled. `legacy` holds plain functions that
// carry the re-exported names themselves; they are not what the paths below name.
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

    pub use self::heads::project_disabled as frozen_head;
}

mod legacy {
    use burn::backend::{DispatchDevice, DispatchTensor};

    pub fn train_device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    pub fn frozen_project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        let ctx = x.autodiff;
        dispatch::q_matmul(x, w.clone(), ctx)
    }
}

pub use crate::internal::devices::flex_autodiff as train_device;
pub use crate::internal::frozen_head as frozen_project;

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::{frozen_project, train_device};

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &train_device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }

    pub fn score_rooted(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &crate::train_device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }

    pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        frozen_project(x, &q) //~ BD001
    }
}
