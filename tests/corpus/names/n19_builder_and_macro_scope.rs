// Names: builder methods taking `mut self` and returning `Self` carry the fields they set (not the
// join of every value the type's field is ever given), `&mut self` methods change the caller's
// receiver, and `macro_rules!` follows textual scoping:
// a later definition of the same name replaces the earlier one below it.
use burn::backend::{
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy)]
pub struct Cfg {
    pub ctx: Ctx,
    pub scale: f32,
}

impl Cfg {
    pub fn new() -> Self {
        Self { ctx: Ctx::Enabled(Gcs::Disabled), scale: 1.0 }
    }
    pub fn frozen(mut self) -> Self {
        self.ctx = Ctx::Disabled;
        self
    }
    pub fn tracked(mut self) -> Self {
        self.ctx = Ctx::Enabled(Gcs::Balanced);
        self
    }
    pub fn freeze(&mut self) -> &mut Self {
        self.ctx = Ctx::Disabled;
        self
    }
    pub fn track(&mut self) {
        self.ctx = Ctx::Enabled(Gcs::Balanced);
    }
}

pub fn frozen_in_place(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let mut cfg = Cfg::new();
    cfg.freeze().scale = 2.0;
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, cfg.ctx) //~ BD001
}

pub fn tracked_in_place(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let mut cfg = Cfg::new().frozen();
    cfg.track();
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, cfg.ctx)
}

fn device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn frozen_chain(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, Cfg::new().frozen().ctx) //~ BD001
}

pub fn tracked_chain(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, Cfg::new().frozen().tracked().ctx)
}

macro_rules! run_ctx {
    () => {
        Ctx::Enabled(Gcs::Disabled)
    };
}

pub fn before_redefinition(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, run_ctx!())
}

macro_rules! run_ctx {
    () => {
        Ctx::Disabled
    };
}

pub fn after_redefinition(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, run_ctx!()) //~ BD001
}
