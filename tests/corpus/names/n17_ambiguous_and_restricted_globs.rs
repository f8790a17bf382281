// Names: two globs that both bring a `frozen_ctx` in are ambiguous (rustc rejects the use): the
// name stays unknown, so nothing is reported; an item restricted with `pub(in crate::render)` or
// `pub(super)` is not brought in by a glob outside that scope, so the visible one is meant.
use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
use burn::tensor::TensorData;

mod eval {
    use super::Ctx;
    pub fn frozen_ctx() -> Ctx {
        Ctx::Disabled
    }
}

mod train {
    use super::Ctx;
    use burn::backend::GradientCheckpointingStrategy as Gcs;
    pub fn frozen_ctx() -> Ctx {
        Ctx::Enabled(Gcs::Balanced)
    }
}

mod render {
    pub mod inner {
        use burn::backend::DispatchAutodiffContext as Ctx;
        use burn::backend::GradientCheckpointingStrategy as Gcs;
        pub(in crate::render) fn head_ctx() -> Ctx {
            Ctx::Enabled(Gcs::Balanced)
        }
    }
}

mod heads {
    use burn::backend::DispatchAutodiffContext as Ctx;
    pub fn head_ctx() -> Ctx {
        Ctx::Disabled
    }
}

fn device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub mod both {
    use super::*;
    use crate::eval::*;
    use crate::train::*;

    pub fn ambiguous(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &device());
        dispatch::q_matmul(x, q, frozen_ctx())
    }
}

pub mod restricted {
    use super::*;
    use crate::heads::*;
    use crate::render::inner::*;

    pub fn visible_one(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &device());
        dispatch::q_matmul(x, q, head_ctx()) //~ BD001
    }
}
