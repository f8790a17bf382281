"""Stage 3, interpretation: abstract values flowing through functions.

Takes lowered functions and the semantic model; gives per-function summaries (`program`) and
the observations made at burn's sinks, by forward abstract interpretation over disjunctive
states (`interpreter`, `state`, `values`, `valueops`, `patterns`, `effects`, `calls`,
`closures`, `observe`, `sinks`).
"""
