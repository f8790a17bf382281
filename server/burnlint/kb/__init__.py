"""The knowledge base: one Markdown entry per burnlint code, loaded from `kb/`."""
