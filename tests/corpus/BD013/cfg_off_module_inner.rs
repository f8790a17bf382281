// Fires (checkpointing era, a crate whose own `autodiff` feature forwards to burn's): the
// serving module only exists when the feature is off, and it still strips autodiff with
// `inner()`. The same call in the training module, built with the feature, is fine.
//@ era: checkpointing
//@ build: optional
#[cfg(not(feature = "autodiff"))]
mod serving {
    use burn::tensor::Tensor;

    pub fn features(x: Tensor<2>) -> Tensor<2> {
        x.inner().exp() //~ BD013
    }
}

#[cfg(feature = "autodiff")]
mod training {
    use burn::tensor::Tensor;

    pub fn features(x: Tensor<2>) -> Tensor<2> {
        x.inner().exp()
    }
}
