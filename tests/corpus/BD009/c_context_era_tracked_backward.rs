// Clean twins (context era): a source with `require_grad()` anywhere in the graph, a tracked
// parameter mixed with an untracked input, a loss whose tracking is not known (a parameter, a
// value from an unknown function), and a detached tracked leaf (it stays tracked).
//@ era: context
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn required_leaf() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let _grads = w.powf_scalar(2.0).sum().backward();
}

pub fn tracked_weight_untracked_input() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let x = Tensor::<2>::ones([4, 4], &device); // untracked input
    let loss = x.matmul(w).sum();
    let _grads = loss.backward();
}

pub fn marked_later() {
    let device = Device::default().autodiff();
    let mut w = Tensor::<2>::ones([4, 4], &device);
    w = w.set_require_grad(true);
    let _grads = w.exp().sum().backward();
}

pub fn unknown_loss(loss: Tensor<1>) {
    let _grads = loss.backward();
}

pub fn from_elsewhere(x: Tensor<2>) {
    let scale = weights();
    let device = Device::default().autodiff();
    let y = Tensor::<2>::ones([4, 4], &device);
    let _grads = (y * scale).sum().backward();
    let _ = x;
}

fn weights() -> Tensor<2> {
    load_weights()
}

pub fn detached_leaf() {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let _grads = w.detach().sum().backward();
}

/// Not reported although it panics on 0.22: a tensor lifted with `autodiff()` is not marked
/// untracked, because burn's own `BackendTensor::autodiff()` accessor reads the same (a miss,
/// kept for precision).
pub fn lifted_input() {
    let plain = Tensor::<2>::ones([4, 4], &Device::default());
    let _grads = plain.autodiff().sum().backward();
}

/// Untracked on one path only (the loop may run zero times, the flag may be false): reported
/// only when every path panics.
pub fn through_a_loop(params: Vec<Tensor<2>>) {
    let device = Device::default().autodiff();
    let mut x = Tensor::<2>::ones([2, 4], &device);
    for p in params.iter() {
        x = x.matmul(p.clone());
    }
    let _grads = x.sum().backward();
}

pub fn on_one_branch(flag: bool) {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device);
    let w = if flag { w.require_grad() } else { w };
    let _grads = w.sum().backward();
}
