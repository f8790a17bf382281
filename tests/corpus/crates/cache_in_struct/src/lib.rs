//! Attention blocks with a key cache filled during training and read during inference.
//@ clean

pub mod attn;
pub mod safe_attn;
