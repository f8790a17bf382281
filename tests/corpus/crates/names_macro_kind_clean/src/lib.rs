//! Clean twin of `names_macro_kind`: the same `backend_kind!` name, re-export and call shapes, but the
//! shorthand expands to a tracked kind, one `Autodiff` layer around the backend kind (as burn's `from_inner`
//! builds it), so an `Enabled` context is right. A linter that assumes brush's meaning would report here.
//@ clean

macro_rules! backend_kind {
    ($($t:tt)*) => {
        ::burn::backend::DispatchTensorKind::Autodiff(Box::new(::burn::backend::DispatchTensorKind::Flex($($t)*)))
    };
}
pub(crate) use backend_kind;

pub mod render;
