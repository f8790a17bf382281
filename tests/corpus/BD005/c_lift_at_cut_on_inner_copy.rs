// Clean (checkpointing era, burn-mamba's `Layers::cascade`): the layers below `cut` run on an
// inner-backend copy of the stream, made only when `cut > 0`; the loop lifts the copy back with
// `from_inner` when it reaches `cut`. The lift runs only on the path that made the copy, and only
// in the one round where `pos == cut`, so it never meets an autodiff tensor.
//@ era: checkpointing
//@ clean
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
        if cut > 0 && pos == cut {
            stream = stream.into_iter().map(Tensor::from_inner).collect();
            carried = carried.into_iter().map(Tensor::from_inner).collect();
        }
        let width = if pos < cut { 1 } else { 2 };
        stream = stream.into_iter().map(|t| t.clone() + t).collect();
        carried = carried.into_iter().map(|t| t.repeat_dim(0, width)).collect();
    }
    stream
}
