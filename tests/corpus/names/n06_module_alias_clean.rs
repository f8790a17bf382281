// Names (clean twin of n06): the alias `h` names `crate::a::c` (plain device, a wrapper that derives the
// context), and in the use group the autodiff input only goes through `derived` (= `c`), the plain one
// through `frozen` (= `b`, which sends its parameter to the sink with Disabled).
//@ clean
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

    use crate::a::c as h;

    pub fn score(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let x = Dispatch::float_from_data(data, &h::device());
        dispatch::q_matmul(x, q, Ctx::Disabled)
    }

    pub fn score_projected(data: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        h::project(x, &q)
    }
}

mod grouped {
    use burn::backend::{ops::FloatTensorOps, Dispatch, DispatchDevice, DispatchTensor};
    use burn::tensor::TensorData;

    use crate::a::{b as frozen, c as derived};

    pub fn score(data: TensorData, plain: TensorData, q: DispatchTensor) -> DispatchTensor {
        let dev = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
        let x = Dispatch::float_from_data(data, &dev);
        let p = Dispatch::float_from_data(plain, &DispatchDevice::Flex(Default::default()));
        let y = derived::project(x, &q);
        let _ = frozen::project(p, &q);
        y
    }
}
