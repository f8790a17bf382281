// Names (clean twin of n22): the same ways of asking for `Probe`'s default, whose hand-written
// `impl Default` now builds the tracking probe (Enabled); `frozen()` (Disabled) is reached by nothing.
//@ clean
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy)]
pub struct Probe {
    pub ctx: Ctx,
    pub samples: u32,
}

impl Probe {
    fn frozen() -> Self {
        Probe { ctx: Ctx::Disabled, samples: 16 }
    }
    fn tracking() -> Self {
        Probe { ctx: Ctx::Enabled(Gcs::Disabled), samples: 16 }
    }
}

impl Default for Probe {
    fn default() -> Self {
        Self::tracking()
    }
}

#[derive(Default)]
pub struct Suite {
    pub probe: Probe,
    pub spare: Option<Probe>,
    pub name: String,
}

fn tracked() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn annotated_let(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let p: Probe = Default::default();
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, p.ctx)
}

pub fn struct_update(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let p = Probe { samples: 4, ..Default::default() };
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, p.ctx)
}

pub fn qualified_trait(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, <Probe as Default>::default().ctx)
}

pub fn inside_derived(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let suite = Suite::default();
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, suite.probe.ctx)
}

pub fn none_local(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let p: Option<Probe> = None;
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, p.unwrap_or_default().ctx)
}

pub fn none_field(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let suite = Suite { name: String::new(), ..Default::default() };
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, suite.spare.unwrap_or_default().ctx)
}
