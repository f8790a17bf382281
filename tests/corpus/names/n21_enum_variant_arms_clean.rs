// Names (clean twin of n21): the same matches, reached with `Fit`, the only variant whose arm keeps
// the context Enabled; `Score` and `Export` (Disabled) are written but never reach a tensor.
//@ clean
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
    pub fn fitting() -> Self {
        Self::Fit
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
    dispatch::q_matmul(t, q, Stage::Fit.context())
}

pub mod bare {
    use super::Stage::*;
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchTensor};
    use burn::tensor::TensorData;

    pub fn by_ref(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
        let stage = Fit;
        let t = Dispatch::float_from_data(rows, &super::tracked());
        dispatch::q_matmul(t, q, stage.context_by_ref())
    }
}

pub fn from_constructor(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, Stage::fitting().context())
}

pub fn through_alias(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, context_for(Phase::Fit))
}

pub fn tuple_variant(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let stage = Stage::Export(2);
    let t = Dispatch::float_from_data(rows, &tracked());
    let ctx = if let Stage::Export(_) = stage { Ctx::Enabled(Gcs::Disabled) } else { stage.context() };
    dispatch::q_matmul(t, q, ctx)
}

pub fn field_of_struct(rows: TensorData, q: DispatchTensor) -> DispatchTensor {
    let job = Job { stage: Stage::Fit };
    let t = Dispatch::float_from_data(rows, &tracked());
    dispatch::q_matmul(t, q, job.context())
}
