"""Stage 4, rules: observations become findings users read.

Takes the observations of the interpreter and the knowledge base; gives fixes (`fixes`),
applies them (`edits`) and honours suppression comments (`suppress`).
"""
