"""Expand a `macro_rules!` invocation by example, when its rules are simple enough.

A small macro-by-example engine: a rule's matcher is matched against the invocation's token
trees (literal tokens, delimited groups, `$name:fragment` bindings and `$( .. ) sep op`
repetitions), and the transcriber is written out with the bindings substituted. Fragments that
are one token tree (`tt`, `ident`, `literal`, `lifetime`) take one; the others (`expr`, `ty`,
`path`, `pat`, ..) take tokens up to what follows them in the matcher. Recursion and anything
this cannot match give None: the invocation stays opaque, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

MAX_EXPANSION = 16_384
"""Longer expansions are not worth lowering (and may be a runaway rule)."""
ONE_TREE = frozenset({"tt", "ident", "literal", "lifetime"})
_OPEN = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    group: tuple[_Token, ...] | None = None
    """For a delimited group: its tokens (and `text` is the opening delimiter)."""

    def source(self) -> str:
        if self.group is None:
            return self.text
        inner = " ".join(token.source() for token in self.group)
        return f"{self.text}{inner}{_OPEN[self.text]}"


@dataclass(slots=True)
class _Bindings:
    single: dict[str, str] = field(default_factory=dict[str, str])
    repeated: dict[str, list[_Bindings]] = field(default_factory=dict[str, list["_Bindings"]])


class _NoMatch(Exception):
    pass


def _tokens(node: Node, data: bytes) -> tuple[_Token, ...]:
    """The token trees inside a delimited node (its delimiters left out)."""
    out: list[_Token] = []
    for child in node.children[1:-1]:
        if child.type in ("token_tree", "token_tree_pattern") and child.children:
            opener = data[child.children[0].start_byte : child.children[0].end_byte].decode()
            out.append(_Token(opener if opener in _OPEN else "(", _tokens(child, data)))
        else:
            out.append(_Token(data[child.start_byte : child.end_byte].decode("utf-8", "replace")))
    return tuple(out)


def expand(
    rules: tuple[tuple[Node, Node], ...], data: bytes, invocation: Node, call_data: bytes
) -> str | None:
    """The text an invocation's token tree (`invocation`, in `call_data`) expands to under the
    first matching rule (matchers and transcribers in `data`), or None."""
    arguments = _tokens(invocation, call_data)
    for matcher, transcriber in rules:
        bindings = _Bindings()
        try:
            rest = _match(list(matcher.children[1:-1]), data, list(arguments), bindings)
        except (_NoMatch, RecursionError):
            continue
        if rest:
            continue
        try:
            text = _transcribe(transcriber, data, bindings)
        except (_NoMatch, RecursionError):
            return None
        return text if len(text) <= MAX_EXPANSION else None
    return None


def _match(
    pattern: list[Node], data: bytes, tokens: list[_Token], bindings: _Bindings
) -> list[_Token]:
    """Match `pattern` against a prefix of `tokens`; returns what is left."""
    for index, element in enumerate(pattern):
        kind = element.type
        if kind == "token_binding_pattern":
            name_node = element.child_by_field_name("name") or element.children[0]
            spec_node = element.child_by_field_name("type") or element.children[-1]
            name = _text(name_node, data).lstrip("$")
            spec = _text(spec_node, data)
            if spec in ONE_TREE:
                if not tokens:
                    raise _NoMatch
                bindings.single[name] = tokens[0].source()
                tokens = tokens[1:]
            else:
                stop = _next_literal(pattern[index + 1 :], data)
                taken: list[_Token] = []
                while tokens and not (
                    stop is not None and tokens[0].text == stop and tokens[0].group is None
                ):
                    if spec == "expr" and tokens[0].text in (";", "=>"):
                        break
                    if (
                        stop is None
                        and tokens[0].text == ","
                        and spec in ("expr", "ty", "path", "pat")
                    ):
                        break
                    taken.append(tokens[0])
                    tokens = tokens[1:]
                if not taken:
                    raise _NoMatch
                bindings.single[name] = " ".join(t.source() for t in taken)
        elif kind == "token_repetition_pattern":
            inner, separator, _op = _repetition_parts(element, data)
            iterations: list[_Bindings] = []
            while tokens:
                attempt = _Bindings()
                try:
                    left = _match(inner, data, tokens, attempt)
                except _NoMatch:
                    break
                if len(left) == len(tokens):
                    break
                iterations.append(attempt)
                tokens = left
                if separator is not None:
                    if tokens and tokens[0].text == separator and tokens[0].group is None:
                        tokens = tokens[1:]
                    else:
                        break
            for name in _names(inner, data):
                bindings.repeated[name] = iterations
        elif kind == "token_tree_pattern":
            if not tokens or tokens[0].group is None:
                raise _NoMatch
            left = _match(list(element.children[1:-1]), data, list(tokens[0].group), bindings)
            if left:
                raise _NoMatch
            tokens = tokens[1:]
        else:
            literal = _text(element, data)
            if not tokens or tokens[0].group is not None or tokens[0].text != literal:
                raise _NoMatch
            tokens = tokens[1:]
    return tokens


def _repetition_parts(node: Node, data: bytes) -> tuple[list[Node], str | None, str]:
    """`$( inner ) sep op` -> (inner elements, separator, operator)."""
    children = node.children
    close = next(i for i, c in enumerate(children) if c.type == ")" and i > 1)
    inner = list(children[2:close])
    tail = [_text(c, data) for c in children[close + 1 :]]
    op = tail[-1] if tail else "*"
    separator = tail[0] if len(tail) == 2 else None
    return inner, separator, op


def _names(nodes: list[Node], data: bytes) -> list[str]:
    found: list[str] = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.type == "metavariable":
            found.append(_text(node, data).lstrip("$"))
        stack.extend(node.children)
    return found


def _next_literal(rest: list[Node], data: bytes) -> str | None:
    for element in rest:
        if element.type in ("token_binding_pattern", "token_repetition_pattern"):
            return None
        if element.type == "token_tree_pattern":
            return _text(element.children[0], data)
        return _text(element, data)
    return None


def _transcribe(node: Node, data: bytes, bindings: _Bindings) -> str:
    """The transcriber's contents (without its outer delimiters) with bindings substituted."""
    parts: list[str] = []
    for child in node.children[1:-1]:
        parts.append(_transcribe_one(child, data, bindings))
    return " ".join(part for part in parts if part)


def _transcribe_one(node: Node, data: bytes, bindings: _Bindings) -> str:
    kind = node.type
    if kind == "metavariable":
        name = _text(node, data).lstrip("$")
        if name == "crate":
            return "crate"
        if name not in bindings.single:
            raise _NoMatch
        return bindings.single[name]
    if kind == "token_tree":
        opener = _text(node.children[0], data)
        closer = _text(node.children[-1], data)
        return f"{opener}{_transcribe(node, data, bindings)}{closer}"
    if kind == "token_repetition":
        children = node.children
        close = next(i for i, c in enumerate(children) if c.type == ")" and i > 1)
        inner = children[2:close]
        tail = [_text(c, data) for c in children[close + 1 :]]
        separator = tail[0] if len(tail) == 2 else ""
        names = [n for n in _names(list(inner), data) if n in bindings.repeated]
        if not names:
            raise _NoMatch
        iterations = bindings.repeated[names[0]]
        pieces: list[str] = []
        for iteration in iterations:
            merged = _Bindings({**bindings.single, **iteration.single}, iteration.repeated)
            pieces.append(" ".join(_transcribe_one(c, data, merged) for c in inner))
        return f" {separator} ".join(pieces)
    return _text(node, data)


def _text(node: Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")
