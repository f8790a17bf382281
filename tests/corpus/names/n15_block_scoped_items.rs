// Names: items and `use` declared inside a function body live in a block scope that shadows the
// module's names (rustc's block scopes). `ctx` at module level is Enabled; the block's own `ctx`
// (or its `use ... as ctx`) decides.
use burn::backend::{
    Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor,
    GradientCheckpointingStrategy as Gcs,
};
use burn::tensor::TensorData;

fn ctx() -> Ctx {
    Ctx::Enabled(Gcs::Disabled)
}

mod frozen {
    use burn::backend::DispatchAutodiffContext as Ctx;
    pub fn ctx() -> Ctx {
        Ctx::Disabled
    }
}

fn device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}

pub fn block_fn(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    let y = dispatch::q_matmul(x, q, ctx()); //~ BD001
    fn ctx() -> Ctx {
        Ctx::Disabled
    }
    y
}

pub fn block_use(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    use self::frozen::ctx;
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, ctx()) //~ BD001
}

pub fn module_fn(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    // No block item here: the module's Enabled `ctx` is meant.
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, ctx())
}

const EVAL: Ctx = Ctx::Enabled(Gcs::Disabled);

pub fn block_const(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    const EVAL: Ctx = Ctx::Disabled;
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, EVAL) //~ BD001
}

pub fn module_const(data: TensorData, q: DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &device());
    dispatch::q_matmul(x, q, EVAL)
}
