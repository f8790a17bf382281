// Names: `<T as Trait>::CTX` is the trait impl's constant, not T's inherent one of the same name;
// a function returning `Box<dyn Stage>` hides which implementation it built, so methods called on
// its result are not pinned to one impl (each impl's own pairing is consistent).
use burn::backend::{
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

pub trait Mode {
    const CTX: Ctx;
}

pub struct Eval;

impl Eval {
    pub const CTX: Ctx = Ctx::Enabled(Gcs::Disabled);
}

impl Mode for Eval {
    const CTX: Ctx = Ctx::Disabled;
}

pub struct Train;

impl Train {
    pub const CTX: Ctx = Ctx::Disabled;
}

impl Mode for Train {
    const CTX: Ctx = Ctx::Enabled(Gcs::Disabled);
}

fn device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn qualified_eval(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, <Eval as Mode>::CTX) //~ BD001
}

pub fn qualified_train(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, <Train as Mode>::CTX)
}

pub trait Stage {
    fn device(&self) -> DispatchDevice;
    fn context(&self) -> Ctx;
}

pub struct Frozen;
pub struct Tracked;

impl Stage for Frozen {
    fn device(&self) -> DispatchDevice {
        DispatchDevice::Flex(Default::default())
    }
    fn context(&self) -> Ctx {
        Ctx::Disabled
    }
}

impl Stage for Tracked {
    fn device(&self) -> DispatchDevice {
        DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
    }
    fn context(&self) -> Ctx {
        Ctx::Enabled(Gcs::Disabled)
    }
}

fn pick(train: bool) -> Box<dyn Stage> {
    if train {
        Box::new(Tracked)
    } else {
        Box::new(Frozen)
    }
}

pub fn through_dyn(data: TensorData, q: DispatchTensor, train: bool) -> DispatchTensor {
    let stage = pick(train);
    let x = Dispatch::float_from_data(data, &stage.device());
    dispatch::q_matmul(x, q, stage.context())
}
