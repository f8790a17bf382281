"""Pure analysis of Rust source, in four stages that each depend only on the ones before:

    syntax/     text -> trees -> lowered intermediate form
    semantics/  crate graph, items, DefMap (names), types, cfg, burn's API model
    interp/     abstract interpretation, summaries, observations at sinks
    rules/      fixes, suppressions
    engine.py   drives the stages and turns observations into findings

`findings` and `options` are the data types shared by every stage and by callers. Nothing in
this package imports pygls or lsprotocol, reads the disk, or imports the rest of burnlint.
"""
