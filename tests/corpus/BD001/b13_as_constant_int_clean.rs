// B13's `as_constant` on int and bool tensors: only floats can be autodiff primitives, so an int or
// bool tensor made on an autodiff device keeps a plain kind, and pairing it with `Disabled` is how a
// raw handle is reached (the float twin is b13_as_constant_helper.rs).
//@ clean
use burn::backend::{DispatchAutodiffContext as Ctx, DispatchTensor};
use burn::tensor::{Bool, Device, Int, Tensor};

fn as_constant_int<const D: usize>(t: &Tensor<D, Int>) -> Tensor<D, Int> {
    let mut d = t.clone().into_dispatch();
    d.autodiff = Ctx::Disabled;
    Tensor::from_dispatch(d)
}

fn as_constant_mask(t: Tensor<2, burn::tensor::Bool>) -> Tensor<2, Bool> {
    let DispatchTensor { kind, mut autodiff } = t.into_dispatch();
    autodiff = Ctx::Disabled;
    Tensor::from_dispatch(DispatchTensor { kind, autodiff })
}

pub fn pinned_targets(targets: &Tensor<2, Int>) -> Tensor<2, Int> {
    let device = Device::default().autodiff();
    let buffer: Tensor<2, Int> = Tensor::zeros(targets.dims(), &device);
    let pinned = as_constant_int(&buffer);
    let mut d = buffer.into_dispatch();
    d.autodiff = Ctx::Disabled;
    let _raw: Tensor<2, Int> = Tensor::from_dispatch(d);
    pinned
}

/// A field declared an int tensor, filled on an autodiff device.
pub struct Pins {
    ids: Tensor<2, Int>,
}

impl Pins {
    pub fn new(dims: [usize; 2]) -> Self {
        Self { ids: Tensor::zeros(dims, &Device::default().autodiff()) }
    }

    pub fn raw_ids(&self) -> Tensor<2, Int> {
        let mut d = self.ids.clone().into_dispatch();
        d.autodiff = Ctx::Disabled;
        Tensor::from_dispatch(d)
    }
}

/// An int tensor made with its kind written at the call (`Tensor::<1, Int>::arange`).
pub fn raw_positions(n: i64) -> Tensor<1, Int> {
    let positions = Tensor::<1, Int>::arange(0..n, &Device::default().autodiff());
    let mut d = positions.into_dispatch();
    d.autodiff = Ctx::Disabled;
    Tensor::from_dispatch(d)
}

pub fn pinned_mask(mask: Tensor<2, Bool>) -> Tensor<2, Bool> {
    as_constant_mask(mask)
}
