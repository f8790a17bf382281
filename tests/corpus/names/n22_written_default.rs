// Names: a struct's hand-written `impl Default` decides what every way of asking for its default
// gives (not only `Probe::default()`): `let p: Probe = Default::default()`, `..Default::default()` in a
// literal, `<Probe as Default>::default()`, a `#[derive(Default)]` struct holding one, and
// `unwrap_or_default()` on a `None` declared as `Option<Probe>` (a local, or a derived struct's field).
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
}

impl Default for Probe {
    fn default() -> Self {
        Self::frozen()
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
    dispatch::q_matmul(t, q, p.ctx) //~ BD001
}

pub fn struct_update(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let p = Probe { samples: 4, ..Default::default() };
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, p.ctx) //~ BD001
}

pub fn qualified_trait(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, <Probe as Default>::default().ctx) //~ BD001
}

pub fn inside_derived(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let suite = Suite::default();
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, suite.probe.ctx) //~ BD001
}

pub fn none_local(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let p: Option<Probe> = None;
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, p.unwrap_or_default().ctx) //~ BD001
}

pub fn none_field(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let suite = Suite { name: String::new(), ..Default::default() };
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, suite.spare.unwrap_or_default().ctx) //~ BD001
}
