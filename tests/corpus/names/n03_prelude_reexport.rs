// Names: a prelude module glob re-exports another module (`mod prelude { pub use crate::ops::*; }`), and the
// model globs the prelude. `ops` holds the autodiff device and a wrapper that sends its parameter to the sink
// with Disabled; `safe_ops` holds the same names done right and is not what the prelude re-exports.
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
    pub use crate::ops::*;
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::prelude::*;

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &model_device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }

    pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &model_device());
        quant_project(x, &q) //~ BD001
    }

    pub fn score_by_path(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &crate::prelude::model_device());
        crate::prelude::quant_project(x, &q) //~ BD001
    }
}
