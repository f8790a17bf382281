// Names: a glob of another crate's enum (`use burn::..::DispatchAutodiffContext::*`) brings its
// variants in, directly and through a prelude module that re-exports the glob; a local enum with
// variants of the same names, glob-imported elsewhere, is not burn's.
use burn::backend::{Dispatch, DispatchDevice, DispatchTensor, GradientCheckpointingStrategy as Gcs};
use burn::tensor::TensorData;

mod prelude {
    pub use burn::backend::DispatchAutodiffContext::*;
}

mod modes {
    #[derive(Clone, Copy)]
    pub enum Mode {
        Enabled,
        Disabled,
    }
}

fn device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn direct(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    use burn::backend::DispatchAutodiffContext::*;
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, Disabled) //~ BD001
}

pub fn through_prelude(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    use crate::prelude::*;
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, Disabled) //~ BD001
}

pub fn enabled_through_prelude(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    use crate::prelude::*;
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, Enabled(Gcs::Disabled))
}

pub fn local_enum(data: TensorData, q: DispatchTensor, ctx: burn::backend::DispatchAutodiffContext) -> DispatchTensor {
    use crate::modes::Mode::*;
    let _mode = Disabled;
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, ctx)
}
