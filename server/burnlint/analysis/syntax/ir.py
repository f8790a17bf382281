"""The small intermediate form that each function body is lowered into once.

Expressions and statements are plain frozen dataclasses; spans are byte offsets into the file.
Names are resolved during lowering: a `Var` carries the id of the binding it reads, so shadowing
is already decided here and the interpreter never looks at identifiers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from burnlint.records import record


class Anchor:
    """Where an item (a function, a constant) starts in its file. The spans of its body are
    stored relative to it: when an edit elsewhere moves the item, moving its anchor moves every
    span made from it (in the lowered body, summaries, observations) without rebuilding them."""

    __slots__ = ("base",)

    def __init__(self, base: int = 0) -> None:
        self.base = base

    def __repr__(self) -> str:
        return f"Anchor({self.base})"

    def __reduce__(self) -> tuple[object, ...]:
        # The fixed anchor stays the one object it is (spans compare anchors by identity).
        return (_fixed, ()) if self is FIXED else (Anchor, (self.base,))


FIXED = Anchor()
"""The anchor of spans given in absolute offsets (it never moves)."""


def _fixed() -> Anchor:
    return FIXED


@record
class Span:
    """A half-open byte range in one file of the analyzed program (`file` indexes its units).

    `rel_start` and `rel_end` count from `anchor` (absolute offsets with the fixed anchor). Two
    spans are equal when they are the same range relative to the same anchor, so an item's
    spans stay equal to themselves when an edit before it moves it."""

    rel_start: int
    rel_end: int
    file: int = 0
    anchor: Anchor = FIXED

    @property
    def start(self) -> int:
        """The first byte, in the file as it is now."""
        return self.anchor.base + self.rel_start

    @property
    def end(self) -> int:
        """The byte after the last, in the file as it is now."""
        return self.anchor.base + self.rel_end

    def sub(self, start: int, end: int) -> Span:
        """The range `start`..`end` (absolute offsets) relative to the same anchor."""
        base = self.anchor.base
        return Span(start - base, end - base, self.file, self.anchor)


@record
class PBind:
    """`x`, `mut x`, `ref x`, or `x @ sub`."""

    binding: int
    name: str
    sub: Pat | None
    span: Span


@record
class PWild:
    """`_`, `..`, literals and anything that binds nothing and always may match."""

    span: Span


@record
class PTuple:
    """`(a, b)`; also the payload list of a tuple-struct pattern."""

    items: tuple[Pat, ...]
    span: Span


@record
class PStruct:
    """`Path { field: pat, .. }` or `Path(a, b)` (fields named "0", "1", ...)."""

    path: tuple[str, ...]
    fields: tuple[tuple[str, Pat], ...]
    span: Span


@record
class PPath:
    """A unit path such as `None` or `Ctx::Disabled`."""

    path: tuple[str, ...]
    span: Span


@record
class POr:
    """`a | b`."""

    alts: tuple[Pat, ...]
    span: Span


Pat: TypeAlias = PBind | PWild | PTuple | PStruct | PPath | POr


@record
class Var:
    """A read of a local binding (parameter, `let`, pattern, closure parameter)."""

    binding: int
    name: str
    span: Span


@record
class Path:
    """A path that is not a local binding: `Ctx::Disabled`, `None`, `CONST`, `helper`.

    `segments` are the written segments with generic arguments dropped; a qualified
    `<Dispatch as AutodiffBackend>::inner` becomes ("Dispatch", "inner") with `trait_name` set.
    """

    segments: tuple[str, ...]
    span: Span
    trait_name: str | None = None
    non_float: bool = False
    """Whether a `Tensor` segment's generic arguments name an int or bool kind
    (`Tensor::<1, Int>::arange`): what such a path makes is never an autodiff primitive."""


@record
class Lit:
    """A literal; `value` is the source text (for booleans "true"/"false")."""

    kind: str
    value: str
    span: Span


@record
class Call:
    """`callee(args)` where callee is a path or any expression."""

    callee: Expr
    args: tuple[Expr, ...]
    span: Span
    scope: Scope | None = None


@record
class MethodCall:
    """`receiver.name(args)`; `name_span` covers `.name(args)` for diagnostics."""

    receiver: Expr
    name: str
    args: tuple[Expr, ...]
    span: Span
    name_span: Span
    scope: Scope | None = None


@record
class Field:
    """`base.name` (tuple fields use their index as name)."""

    base: Expr
    name: str
    span: Span


@record
class FieldInit:
    """One `name: value` of a struct literal; shorthand `name` is lowered to `name: name`."""

    name: str
    value: Expr
    span: Span


@record
class StructLit:
    """`Path { fields, ..base }`."""

    path: tuple[str, ...]
    fields: tuple[FieldInit, ...]
    base: Expr | None
    span: Span
    scope: Scope | None = None


@record
class Tuple:
    """`(a, b)`; the unit value is an empty tuple."""

    items: tuple[Expr, ...]
    span: Span


@record
class Array:
    """`[a, b]` or `vec![a, b]`: a collection whose element is the join of the items."""

    items: tuple[Expr, ...]
    span: Span


@record
class Unary:
    """`!x`, `-x`, `*x` (references `&x` are transparent and lowered to `x`)."""

    op: str
    operand: Expr
    span: Span


@record
class Binary:
    """`a op b`, including the short-circuit `&&` and `||`."""

    op: str
    left: Expr
    right: Expr
    span: Span


@record
class LetCond:
    """`let pat = value` inside an `if`/`while` condition."""

    pattern: Pat
    value: Expr
    span: Span


@record
class If:
    """`if cond { then } else { otherwise }`."""

    cond: Expr
    then: Block
    otherwise: Expr | None
    span: Span


@record
class Arm:
    """One `pattern if guard => body` arm."""

    pattern: Pat
    guard: Expr | None
    body: Expr
    span: Span


@record
class Match:
    """`match scrutinee { arms }`."""

    scrutinee: Expr
    arms: tuple[Arm, ...]
    span: Span


@record
class Loop:
    """`loop`, `while cond`, `while let`, or `for pattern in iterable`."""

    kind: str
    label: str | None
    cond: Expr | None
    pattern: Pat | None
    iterable: Expr | None
    body: Block
    span: Span


@record
class Closure:
    """`|params| body`; treated as opaque until closures are modelled."""

    params: tuple[Pat, ...]
    body: Expr
    span: Span
    scope: tuple[int, int] = (0, 0)
    """The binding ids made inside the closure (its parameters too), `range(*scope)`."""


@record
class Return:
    """`return value`, or the error exit of `?`."""

    value: Expr | None
    span: Span


@record
class Break:
    """`break 'label value`."""

    label: str | None
    value: Expr | None
    span: Span


@record
class Continue:
    """`continue 'label`."""

    label: str | None
    span: Span


@record
class Diverge:
    """`panic!`, `unreachable!`, `todo!`, `unimplemented!`: no state flows past it."""

    span: Span


@record
class Assert:
    """`assert!(cond)` / `debug_assert!(cond)`: execution continues only where cond holds."""

    cond: Expr
    span: Span


@record
class Assign:
    """`target = value` or `target op= value` (op is "" for plain assignment)."""

    target: Expr
    value: Expr
    op: str
    span: Span
    scope: Scope | None = None


@record
class Try:
    """`value?`."""

    value: Expr
    span: Span


@record
class Opaque:
    """Anything not modelled; its parts are still evaluated for their effects."""

    parts: tuple[Expr, ...]
    span: Span
    kind: str = ""
    """"range" for `a..b`, "range=" for `a..=b` (a `for` loop counts over them); else empty."""


@record
class Block:
    """`{ stmts; tail }`."""

    stmts: tuple[Stmt, ...]
    tail: Expr | None
    span: Span
    scope: tuple[int, int] = (0, 0)
    """The binding ids made inside the block, `range(*scope)` (ids are given out in order)."""


Expr: TypeAlias = (
    Var
    | Path
    | Lit
    | Call
    | MethodCall
    | Field
    | StructLit
    | Tuple
    | Array
    | Unary
    | Binary
    | LetCond
    | If
    | Match
    | Loop
    | Closure
    | Return
    | Break
    | Continue
    | Diverge
    | Assert
    | Assign
    | Try
    | Opaque
    | Block
)


@record
class Let:
    """`let pattern: type_text = init else { otherwise };`."""

    pattern: Pat
    init: Expr | None
    otherwise: Block | None
    span: Span
    type_text: str = ""


@record
class ExprStmt:
    """An expression evaluated for its effects."""

    expr: Expr
    span: Span


Stmt: TypeAlias = Let | ExprStmt


@record
class Scope:
    """The local names visible at a sink candidate: name -> (binding id, declared type text)."""

    names: dict[str, tuple[int, str]]


@record
class Param:
    """A function parameter; `self` is a parameter named "self"."""

    pattern: Pat
    type_text: str
    span: Span


@dataclass(slots=True)
class Function:
    """A lowered function or method of the file."""

    name: str
    owner: str | None
    params: tuple[Param, ...]
    body: Block | None
    span: Span
    name_span: Span
    return_type: str
    has_self: bool
    binding_count: int = 0
    binding_names: dict[int, str] = field(default_factory=dict[int, str])
