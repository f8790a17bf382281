// Firing twin of c_lift_at_cut_on_inner_copy (checkpointing era): the lift is guarded by
// `pos == cut` alone, so with `cut == 0` it runs at `pos == 0` on the path that never made the
// inner copy and still holds the autodiff tensor (a warning: the other path is fine).
//@ era: checkpointing
use burn::tensor::{Device, Distribution, Tensor};

fn grad_cut(n: usize) -> usize {
    n / 2
}

pub fn cascade(n: usize) -> Vec<Tensor<2>> {
    let device = Device::default().autodiff();
    let x = Tensor::<2>::random([4, 4], Distribution::Default, &device);
    let mut stream: Vec<Tensor<2>> = vec![x];
    let cut = grad_cut(n);
    if cut > 0 {
        stream = stream.into_iter().map(Tensor::inner).collect();
    }
    let mut carried: Vec<Tensor<2>> = stream.iter().map(|t| t.clone()).collect();
    for pos in 0..n {
        if pos == cut {
            stream = stream.into_iter().map(Tensor::from_inner).collect(); //~ WARN BD005
            carried = carried.into_iter().map(Tensor::from_inner).collect(); //~ WARN BD005
        }
        let width = if pos < cut { 1 } else { 2 };
        stream = stream.into_iter().map(|t| t.clone() + t).collect();
        carried = carried.into_iter().map(|t| t.repeat_dim(0, width)).collect();
    }
    stream
}
