"""Pure analysis of Rust source: parsing, lowering, abstract interpretation, findings.

Nothing in this package imports pygls or lsprotocol.
"""
