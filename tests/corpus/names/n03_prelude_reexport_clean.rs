// Names (clean twin of n03): the prelude glob re-exports `safe_ops` (plain device, a wrapper that derives the
// context from its parameter); `ops` has the same names done wrong, but nothing reaches it.
//@ clean
mod ops {
    use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

    pub fn model_device() -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }

    pub fn quant_project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
    }
}

mod safe_ops {
    use burn::backend::{DispatchDevice, DispatchTensor};

    pub fn model_device() -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }

    pub fn quant_project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
        let ctx = x.autodiff;
        dispatch::q_matmul(x, w.clone(), ctx)
    }
}

pub mod prelude {
    pub use crate::safe_ops::*;
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::prelude::*;

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &model_device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }

    pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &model_device());
        quant_project(x, &q)
    }

    pub fn score_by_path(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &crate::prelude::model_device());
        crate::prelude::quant_project(x, &q)
    }
}
