//! Names: `Panel::read` is the program's only method named `read`. A call of it on a `Panel` runs
//! it; a call with an argument (`io::Read::read(&mut buf)`) cannot, whatever the receiver is.

use std::io::Read;

use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub struct Panel;

impl Panel {
    pub fn read(&self) -> Ctx {
        Ctx::Disabled
    }
}

pub fn from_panel(panel: &Panel, rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &engine::tracked());
    dispatch::q_matmul(t, q, panel.read()) //~ BD001
}

pub fn from_shared(shared: &engine::Shared, rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &engine::tracked());
    dispatch::q_matmul(t, q, engine::current(shared))
}

pub fn from_header<R: Read>(mut source: R, rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &engine::tracked());
    let mut header = [0u8; 4];
    let ctx = match source.read(&mut header) {
        Ok(_) => Ctx::Enabled(Gcs::Disabled),
        Err(_) => Ctx::Enabled(Gcs::Disabled),
    };
    dispatch::q_matmul(t, q, ctx)
}
