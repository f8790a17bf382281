// Names: module aliases. `use crate::a::b as h; h::f()` and a renamed module in a use group
// (`use crate::a::{b as frozen, c as derived}`). `a::b::project` sends its parameter to the sink with Disabled,
// `a::c::project` derives the context from it; `a::b::device` is autodiff, `a::c::device` is plain.
mod a {
    pub mod b {
        use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};

        pub fn device() -> DispatchDevice {
            DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
        }

        pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
            dispatch::q_matmul(x, w.clone(), Ctx::Disabled)
        }
    }

    pub mod c {
        use burn::backend::{DispatchDevice, DispatchTensor};

        pub fn device() -> DispatchDevice {
            DispatchDevice::Flex(Default::default())
        }

        pub fn project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
            let ctx = x.autodiff;
            dispatch::q_matmul(x, w.clone(), ctx)
        }
    }
}

mod model {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::a::b as h;

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &h::device());
        dispatch::q_matmul(x, q, Ctx::Disabled) //~ BD001
    }

    pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        h::project(x, &q) //~ BD001
    }
}

mod grouped {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::a::{b as frozen, c as derived};

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        let y = derived::project(x.clone(), &q);
        let _ = frozen::project(x, &q); //~ BD001
        y
    }
}
