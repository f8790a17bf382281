"""Stage 1, syntax: source text in, intermediate form out.

Takes a file's bytes; gives its tree-sitter tree (`source`, `tree`), and each function body
lowered into the small intermediate form of `ir` (`lower`, with `lower_control`,
`lower_patterns`, `macros` and lexical `scopes`). Knows nothing about other files.
"""
