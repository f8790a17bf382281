// Context era (burn >= 0.22): `backward()` on an autodiff tensor none of whose sources had
// `require_grad()` panics "requires a tracked autodiff tensor": created on an autodiff device and
// combined only with untracked tensors or plain constants.
//@ era: context
use burn::tensor::{Device, Distribution, Tensor};

pub fn never_required() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device); // no require_grad()
    let loss = w.powf_scalar(2.0).sum();
    let _grads = loss.backward(); //~ BD009: is not a tracked autodiff tensor
}

pub fn with_constants() {
    let device = Device::default().autodiff();
    let x = Tensor::<2>::ones([4, 4], &device); // untracked
    let target = Tensor::<2>::zeros([4, 4], &Device::default()); // a plain constant
    let loss = (x - target).abs().mean();
    let _grads = loss.backward(); //~ BD009
}

pub fn on_every_branch(flag: bool) {
    let device = Device::default().autodiff();
    let w = if flag {
        Tensor::<2>::ones([4, 4], &device)
    } else {
        Tensor::<2>::zeros([4, 4], &device)
    };
    let _grads = w.exp().sum().backward(); //~ BD009
}
