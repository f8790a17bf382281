"""burnlint: find misuse of burn's dispatch autodiff API in Rust source before it panics."""

__version__ = "0.1.0"
