// Names: a `match` (or `if let`) on a unit variant of the program's own enum takes only the arm of
// the variant the value is on this path, however the variant is written: `Stage::Score`,
// `Self::Score`, through a type alias, or bare after `use Stage::*;` (in the module or the function),
// also when the enum is a struct field read in a method, or a tuple variant with a payload.
use burn::backend::{
    ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

#[derive(Clone, Copy, PartialEq)]
pub enum Stage {
    Fit,
    Score,
    Export(u8),
}

pub type Phase = Stage;

impl Stage {
    pub fn context(self) -> Ctx {
        match self {
            Stage::Fit => Ctx::Enabled(Gcs::Disabled),
            Stage::Score | Stage::Export(_) => Ctx::Disabled,
        }
    }
    pub fn context_by_ref(&self) -> Ctx {
        use Stage::*;
        match *self {
            Fit => Ctx::Enabled(Gcs::Disabled),
            Score => Ctx::Disabled,
            Export(_) => Ctx::Disabled,
        }
    }
    pub fn scoring() -> Self {
        Self::Score
    }
}

pub struct Job {
    stage: Stage,
}

impl Job {
    pub fn context(&self) -> Ctx {
        if let Stage::Fit = self.stage {
            Ctx::Enabled(Gcs::Disabled)
        } else {
            Ctx::Disabled
        }
    }
}

fn context_for(stage: Phase) -> Ctx {
    match stage {
        Phase::Fit => Ctx::Enabled(Gcs::Disabled),
        _ => Ctx::Disabled,
    }
}

fn tracked() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn qualified(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, Stage::Score.context()) //~ BD001
}

pub mod bare {
    use super::Stage::*;
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchTensor};
    use burn::tensor::TensorData;

    pub fn by_ref(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
        let stage = Score;
        let t = Dispatch::float_from_data(rows, &super::tracked());
        dispatch::q_matmul(t, q, stage.context_by_ref()) //~ BD001
    }
}

pub fn from_constructor(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, Stage::scoring().context()) //~ BD001
}

pub fn through_alias(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, context_for(Phase::Score)) //~ BD001
}

pub fn tuple_variant(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, Stage::Export(2).context()) //~ BD001
}

pub fn field_of_struct(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let job = Job { stage: Stage::Score };
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, job.context()) //~ BD001
}

pub fn either(fit: bool, rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    // On some paths the stage is `Score`.
    let stage = if fit { Stage::Fit } else { Stage::Score };
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, stage.context()) //~ WARN BD001
}
