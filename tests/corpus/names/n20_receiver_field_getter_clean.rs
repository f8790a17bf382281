// Names (clean twin of n20): the same receivers, built so that the field holds Enabled on every path
// shown (`untracked()` and `pause()` exist and store Disabled, but no receiver here went through them
// after tracking was set again).
//@ clean
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
    pub fn resume(&mut self) -> &mut Self {
        self.mode = Ctx::Enabled(Gcs::Disabled);
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
    let s = Stepper::tracking().rate(0.01);
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, s.mode())
}

pub fn setter_then_getter(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let mut s = Stepper::tracking();
    s.pause();
    s.resume();
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, s.mode())
}

pub fn setter_chain_getter(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let mut s = Stepper::tracking();
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, s.pause().resume().mode_via_getter())
}

pub fn nested_field(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let trainer = Trainer::with(Stepper::tracking().rate(0.2));
    let t = Dispatch::float_from_data(rows, &tracked_device());
    dispatch::q_matmul(t, q, trainer.step_mode())
}

fn apply(stepper: &Stepper, t: DispatchTensor, q: DispatchTensor) -> DispatchTensor {
    dispatch::q_matmul(t, q, stepper.mode())
}

pub fn through_helper(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked_device());
    apply(&Stepper::tracking(), t, q)
}
