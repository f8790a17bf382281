// Names: a getter that reads `self.field` returns the field of the receiver it is called on when
// that receiver is known on this path (built by a constructor and `mut self` builders, changed by a
// `&mut self` setter, or reached through another method on `self` or a nested field); the join of
// everything the type's methods ever store in the field is only for receivers nothing is known of.
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy)]
pub struct Stepper {
    mode: Ctx,
    rate: f64,
}

impl Stepper {
    pub fn tracking() -> Self {
        Stepper { mode: Ctx::Enabled(Gcs::Disabled), rate: 0.1 }
    }
    pub fn rate(mut self, rate: f64) -> Self {
        self.rate = rate;
        self
    }
    pub fn untracked(mut self) -> Self {
        self.mode = Ctx::Disabled;
        self
    }
    pub fn pause(&mut self) -> &mut Self {
        self.mode = Ctx::Disabled;
        self
    }
    pub fn mode(&self) -> Ctx {
        self.mode
    }
    pub fn mode_via_getter(&self) -> Ctx {
        self.mode()
    }
}

pub struct Trainer {
    stepper: Stepper,
    epochs: usize,
}

impl Trainer {
    pub fn with(stepper: Stepper) -> Self {
        Trainer { stepper, epochs: 1 }
    }
    pub fn step_mode(&self) -> Ctx {
        self.stepper.mode
    }
}

fn tracked_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn builder_then_getter(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let s = Stepper::tracking().untracked().rate(0.01);
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, s.mode()) //~ BD001
}

pub fn setter_then_getter(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let mut s = Stepper::tracking();
    s.pause();
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, s.mode()) //~ BD001
}

pub fn setter_chain_getter(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let mut s = Stepper::tracking();
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, s.pause().mode_via_getter()) //~ BD001
}

pub fn nested_field(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let trainer = Trainer::with(Stepper::tracking().untracked());
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, trainer.step_mode()) //~ BD001
}

fn apply(stepper: &Stepper, t: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(t, q, stepper.mode())
}

pub fn through_helper(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked_device());
    apply(&Stepper::tracking().untracked(), t, q) //~ BD001
}

pub fn unknown_receiver(s: Stepper, rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    // Nothing is known of `s`: its field may hold anything a method stores there.
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, s.mode()) //~ WARN BD001
}
