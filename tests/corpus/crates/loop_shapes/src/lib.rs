//! Shaped like burn-mamba's `unsqueeze_dims` and `Layers::cascade` (checkpointing era, from
//! Cargo.lock): branches on integers inside nested loops, none of which touches a tensor's
//! autodiff state. Each `if` used to double the path classes on every loop round.
//@ clean
use burn::tensor::{Device, Distribution, Tensor};

pub fn unsqueeze_dims(x: Tensor<2>, axes: &[isize], d2: usize) -> Tensor<2> {
    let old_dims = x.dims();
    let mut new_dims = vec![1usize; d2];
    let mut neg_offset = d2;
    let mut dim_indices = axes
        .iter()
        .map(|&d| {
            (if d < 0 {
                neg_offset -= 1;
                d + neg_offset as isize + 1
            } else {
                d
            }) as usize
        })
        .collect::<Vec<usize>>();
    dim_indices.sort_unstable();
    for i in 1..dim_indices.len() {
        if dim_indices[i] <= dim_indices[i - 1] {
            dim_indices[i] = dim_indices[i - 1] + 1;
        }
    }
    let mut dim_indices_curr = 0usize;
    let mut old_dims_curr = 0usize;
    for new_dims_curr in 0..d2 {
        if dim_indices_curr == dim_indices.len() {
            new_dims[new_dims_curr..].copy_from_slice(&old_dims[old_dims_curr..]);
            break;
        }
        if new_dims_curr == dim_indices[dim_indices_curr] {
            dim_indices_curr += 1;
        } else {
            new_dims[new_dims_curr] = old_dims[old_dims_curr];
            old_dims_curr += 1;
        }
    }
    x.reshape(new_dims)
}

pub fn cascade(n: usize, k_max: usize, widths: &[usize], cut: usize) -> Vec<Tensor<2>> {
    let device = Device::default().autodiff();
    let mut stream = vec![Tensor::<2>::random([2, 2], Distribution::Default, &device)];
    if cut > 0 {
        stream = stream.into_iter().map(Tensor::inner).collect();
    }
    let mut k = 1usize;
    let mut full = 0usize;
    for pos in 0..n {
        if cut > 0 && pos == cut {
            stream = stream.into_iter().map(Tensor::from_inner).collect();
        }
        let first = pos == 0;
        let last = pos + 1 == n;
        let k_next = if last { k } else if first { 1 } else { (k + 1).min(k_max) };
        let mut next = Vec::new();
        for (t, token) in stream.into_iter().enumerate() {
            let mut width = widths[t % widths.len()];
            let (mut a, mut b, mut c, mut d) = (0usize, 0usize, 0usize, 0usize);
            while width > k {
                if width % 2 == 0 {
                    width /= 2;
                    a = 0;
                } else {
                    width -= 1;
                    a += 1;
                }
                if width % 3 == 0 {
                    b = 0;
                } else {
                    b += a;
                }
                if width % 5 == 0 {
                    c = 0;
                } else {
                    c += b;
                }
                if width % 7 == 0 {
                    d = 0;
                } else {
                    d += c;
                }
                full += a + b + c + d;
            }
            let step = |a: Tensor<2>| if first || last { a } else { a.clone() + a };
            if t % 2 == 0 {
                next.push(step(token));
            } else if full > 4 {
                next.push(step(token.clone()) + token);
            } else {
                next.push(token);
            }
        }
        for extra in 0..k_next {
            if extra > full {
                full += 1;
            } else if extra == k {
                k += 1;
            }
        }
        stream = next;
        k = k_next;
    }
    stream
}
