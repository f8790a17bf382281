//! brush's layout for a kind shorthand: `backend_kind!` is defined in lib.rs and re-exported to the crate with
//! `pub(crate) use backend_kind;`, then written as `crate::backend_kind!(..)` or imported and written bare.
//! It expands to a plain backend kind (`DispatchTensorKind::Flex(..)`).
//@ clean

macro_rules! backend_kind {
    ($($t:tt)*) => { ::burn::backend::DispatchTensorKind::Flex($($t)*) };
}
pub(crate) use backend_kind;

pub mod render;
