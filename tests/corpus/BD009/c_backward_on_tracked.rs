// Clean: `backward()` on tracked losses, on a `detach()`ed tensor (detach keeps the autodiff kind), and on a
// loss whose autodiff-ness is not known (a parameter)
//@ era: checkpointing
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn tracked() -> Tensor<2> {
    let device = Device::default().autodiff();
    let w = Tensor::<2>::random([4, 4], Distribution::Default, &device).require_grad();
    let loss = w.clone().powf_scalar(2.0).sum();
    let grads = loss.backward();
    let _again = w.clone().detach().sum().backward();
    w.grad(&grads).unwrap()
}

pub fn unknown(loss: Tensor<1>) {
    let _grads = loss.backward();
}
