//! Quantized projection heads and training glue on burn's dispatch backend.

pub mod dispatch;
pub mod infer;
pub mod quant;
pub mod train;
