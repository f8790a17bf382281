"""Render findings for terminals (rustc-like text) and for tools (JSON)."""
