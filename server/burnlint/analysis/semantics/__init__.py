"""Stage 2, semantics: what names and types mean across a crate graph.

Takes the files of one or more crates (with their module paths, features and the crate graph,
`crates`); gives their items (`items`), each crate's DefMap of modules and scopes computed to a
fixpoint over imports, globs and re-exports, the types the code states, method resolution by
receiver type, `cfg` evaluation, and the model of burn's own API compiled from the knowledge
base (`api`).
"""
