"""The language server (`burnlint server`). Only this package imports pygls and lsprotocol;
the analysis it serves is the same one the CLI runs."""
