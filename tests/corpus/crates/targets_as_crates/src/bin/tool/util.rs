//! The tool's context: disabled.
//@ clean

use burn::backend::DispatchAutodiffContext;

pub fn context() -> DispatchAutodiffContext {
    DispatchAutodiffContext::Disabled
}
