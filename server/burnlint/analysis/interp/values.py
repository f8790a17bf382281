"""The abstract values of the interpreter: what a Rust value may be, as far as burn cares.

Each facet is a small set of possibilities; one value can be a tensor, a context, a device,
a strategy, a boolean or a struct at once because the analyzer has no type information.
An empty facet means "nothing is known from this facet". `params` makes a value symbolic in
the enclosing function's parameters so that summaries can be instantiated at call sites.
"""

from __future__ import annotations

from dataclasses import field

from burnlint.analysis.syntax.ir import Span
from burnlint.records import record

AUTODIFF = "autodiff"
FLOAT = "float"
OTHER = "other"
OTHER_AUTODIFF = "other-autodiff"
"""An int, bool or quantized tensor on an autodiff device: never an autodiff primitive (only
floats are), but `float()` makes it an autodiff float again."""
ON_AUTODIFF_DEVICE = frozenset({AUTODIFF, OTHER_AUTODIFF})
"""The tensor kinds made on an autodiff device (their context is enabled)."""
NOT_AUTODIFF = frozenset({FLOAT, OTHER, OTHER_AUTODIFF})
"""The tensor kinds that are no autodiff primitive (`DispatchTensorKind` is not `Autodiff`)."""
UNKNOWN = "unknown"
ENABLED = "enabled"
DISABLED = "disabled"
PLAIN = "plain"

Step = tuple[str, str]
"""A projection step applied to a parameter: ("field", name) or ("method", name)."""


EMPTY: frozenset[str] = frozenset()
MAX_ORIGINS = 4
MAX_TRAIL = 6


@record
class Origin:
    """Where a fact came from, shown as a related location: "autodiff tensor created here"."""

    label: str
    span: Span


@record
class Value:
    """An abstract value; see the module docstring."""

    tensor: frozenset[str] = EMPTY
    ctx: frozenset[str] = EMPTY
    device: frozenset[str] = EMPTY
    strategy: frozenset[str] = EMPTY
    boolean: frozenset[str] = EMPTY
    fields: tuple[tuple[str, Value], ...] = ()
    params: frozenset[tuple[int, tuple[Step, ...]]] = frozenset()
    origins: frozenset[Origin] = frozenset()
    closure: int | None = None
    hint: frozenset[str] = EMPTY
    """What the declared type says this is ("tensor", "device", "ctx"); never a fact for sinks."""
    backend: frozenset[str] = EMPTY
    """The concrete backends (`DispatchDevice` variants) a device or tensor may live on."""
    trail: tuple[Origin, ...] = field(default=(), compare=False, repr=False)
    """The steps the value took (bindings, stores, calls), in order; explanation only."""
    types: frozenset[str] = EMPTY
    """The program types (type keys, `crate::model::Learner`) the value may have, where the
    code states them: annotations, constructors, declared results. Decides method calls."""
    # Derived, never copied by `dataclasses.replace`: a copied cached hash would be stale.
    _hash: int = field(default=0, init=False, compare=False, repr=False)
    depth: int = field(default=0, init=False, compare=False, repr=False)
    _key: object = field(default=None, init=False, compare=False, repr=False)
    _settled: object = field(default=None, init=False, compare=False, repr=False)
    _coarse: object = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.fields:
            object.__setattr__(self, "depth", 1 + max(v.depth for _, v in self.fields))

    def __hash__(self) -> int:
        # Values are hashed again and again when path classes are deduplicated; cache it.
        cached = self._hash
        if cached == 0:
            cached = (
                hash(
                    (
                        self.tensor,
                        self.ctx,
                        self.device,
                        self.strategy,
                        self.boolean,
                        self.fields,
                        self.params,
                        self.backend,
                        self.origins,
                        self.closure,
                        self.hint,
                        self.types,
                    )
                )
                or 1
            )
            object.__setattr__(self, "_hash", cached)
        return cached

    def get_field(self, name: str) -> Value | None:
        """The value stored in field `name`, if this value is a known struct/tuple/option."""
        for key, value in self.fields:
            if key == name:
                return value
        return None

    def with_field(self, name: str, value: Value) -> Value:
        """A copy with field `name` replaced (a strong update)."""
        rest = tuple((k, v) for k, v in self.fields if k != name)
        fields = tuple(sorted((*rest, (name, bounded(value))), key=lambda kv: kv[0]))
        return self._with(fields, self.params)

    def rebuilt(self, fields: tuple[tuple[str, Value], ...]) -> Value:
        """A copy with these fields and no parameter references (a summary value instantiated
        at a call site)."""
        return self._with(fields, frozenset())

    def _with(
        self,
        fields: tuple[tuple[str, Value], ...],
        params: frozenset[tuple[int, tuple[Step, ...]]],
        origins: frozenset[Origin] | None = None,
        trail: tuple[Origin, ...] | None = None,
        types: frozenset[str] | None = None,
    ) -> Value:
        # Built directly: `dataclasses.replace` is slow on these hot paths.
        return Value(
            self.tensor,
            self.ctx,
            self.device,
            self.strategy,
            self.boolean,
            fields,
            params,
            self.origins if origins is None else origins,
            self.closure,
            self.hint,
            self.backend,
            self.trail if trail is None else trail,
            self.types if types is None else types,
        )

    def project(self, step: Step) -> Value:
        """The symbolic value of `self` followed by `step`, when `self` depends on parameters."""
        return Value(params=frozenset((index, (*steps, step)) for index, steps in self.params))

    def with_step(self, label: str, span: Span) -> Value:
        """A copy whose trail records one more step, when the value carries a fact worth
        explaining (an autodiff tensor or device, a disabled context)."""
        if not (AUTODIFF in self.tensor or AUTODIFF in self.device or DISABLED in self.ctx):
            return self
        step = Origin(label, span)
        if step in self.trail or len(self.trail) >= MAX_TRAIL:
            return self
        return self._with(self.fields, self.params, trail=(*self.trail, step))

    def with_origin(self, label: str, span: Span) -> Value:
        """A copy remembering one more origin."""
        if len(self.origins) >= MAX_ORIGINS:
            return self
        return self._with(self.fields, self.params, origins=self.origins | {Origin(label, span)})

    def typed(self, types: frozenset[str]) -> Value:
        """A copy that also has the given program types."""
        if not types or types <= self.types:
            return self
        return self._with(self.fields, self.params, types=self.types | types)

    def retyped(self, types: frozenset[str]) -> Value:
        """A copy whose program types are exactly `types`."""
        return self if types == self.types else self._with(self.fields, self.params, types=types)

    def facet(self, name: str) -> frozenset[str]:
        """One facet by name: "tensor", "ctx", "device"; any other name means the boolean."""
        if name == "tensor":
            return self.tensor
        if name == "ctx":
            return self.ctx
        if name == "device":
            return self.device
        return self.boolean

    def tracked(self) -> object:
        """What this value says about the facts burn's panics depend on (tensor kind, context,
        device, strategy, backend, known booleans and variants, parameters, closures, and the
        same of its fields), as a hashable key; `OPAQUE` when it says nothing about them (an
        integer, a shape, an unknown). Where it came from is left out. Two path classes whose
        bindings have equal keys behave alike at every sink, so they can be joined."""
        cached = self._key
        if cached is None:
            cached = _tracked(self)
            object.__setattr__(self, "_key", cached)
        return cached

    def coarse(self) -> object:
        """A coarser `tracked` key: only the tensor, context, device, strategy and backend
        facts (of the value and, wherever they sit, of its fields) and the parameters and
        closure it stands for. Path classes that agree on it differ in shapes (an `Option` or a
        collection), booleans or type hints only; joining them keeps every fact a sink checks."""
        cached = self._coarse
        if cached is None:
            # Asked of every binding of every path class each time a loop's heads are
            # coarsened, and of each field again: remembered, like `tracked`.
            cached = self._coarsen()
            object.__setattr__(self, "_coarse", cached)
        return cached

    def _coarsen(self) -> object:
        if self.fields:
            inner = frozenset(
                key for _, field_value in self.fields if (key := field_value.coarse()) is not OPAQUE
            )
        else:
            inner = frozenset[object]()
        # "Unknown" alone says no more than nothing known: sinks judge both "none".
        facets = tuple(
            EMPTY if facet == _UNKNOWN_ONLY else facet
            for facet in (self.tensor, self.ctx, self.device, self.strategy, self.backend)
        )
        if not inner and not self.params and self.closure is None and not any(facets):
            return OPAQUE
        return (*facets, self.params, self.closure, inner)

    def settled(self) -> object:
        """What a reader can learn from this value, at a sink or at a branch: `tracked`
        without type hints, "unknown" alone counting as nothing known. A function analyzed
        with an earlier value of a field or summary is analyzed again only when this differs:
        learning that a shape or an integer is unknown changes no finding."""
        cached = self._settled
        if cached is None:
            cached = self._settle()
            object.__setattr__(self, "_settled", cached)
        return cached

    def _settle(self) -> object:
        fields = tuple(
            (name, key) for name, value in self.fields if (key := value.settled()) is not OPAQUE
        )
        facets = tuple(
            EMPTY if facet == _UNKNOWN_ONLY else facet
            for facet in (self.tensor, self.ctx, self.device, self.strategy, self.backend)
        )
        if (
            not fields
            and not any(facets)
            and not self.boolean
            and not self.params
            and self.closure is None
        ):
            return OPAQUE
        return (*facets, self.boolean, self.params, self.closure, fields)


OPAQUE = ("opaque",)
"""The `tracked` key of a value that carries no tracked fact."""


def _tracked(value: Value) -> object:
    fields = tuple((name, field_value.tracked()) for name, field_value in value.fields)
    if (
        value.tensor <= _UNKNOWN_ONLY
        and value.ctx <= _UNKNOWN_ONLY
        and value.device <= _UNKNOWN_ONLY
        and not value.strategy
        and not value.backend
        and not value.boolean
        and not value.params
        and value.closure is None
        and not value.hint
        and all(key is OPAQUE for _, key in fields)
    ):
        return OPAQUE
    return (
        value.tensor,
        value.ctx,
        value.device,
        value.strategy,
        value.backend,
        value.boolean,
        value.params,
        value.closure,
        value.hint,
        fields,
    )


_UNKNOWN_ONLY = frozenset({"unknown"})

MAX_DEPTH = 48
"""Deeper struct/tuple/option nesting is forgotten, so pathological input stays cheap."""


def bounded(value: Value) -> Value:
    """`value`, or an unknown value when its nesting is deeper than `MAX_DEPTH`."""
    return value if value.depth <= MAX_DEPTH else UNKNOWN_VALUE


UNKNOWN_VALUE = Value(
    tensor=frozenset({UNKNOWN}), ctx=frozenset({UNKNOWN}), device=frozenset({UNKNOWN})
)
TRUE = Value(boolean=frozenset({"true"}))
FALSE = Value(boolean=frozenset({"false"}))
UNIT = Value()


# A field whose name starts with `#` is a fact about the value itself (a tensor's tracking mark),
# not Rust data: a side without it knows nothing, so the join drops it.
SHAPE_FIELDS = frozenset({"some", "none", "elem"})
"""Fields that say what shape a value has (`Some` payload, `None`, collection element): a side
without one contributes nothing to it, e.g. `None` joined with `Some(x)` has payload `x`."""


def join(left: Value, right: Value) -> Value:
    """Least upper bound: every possibility of either side."""
    # Hashes are cached: comparing them first spares building both sides' field tuples for
    # the (usual) unequal pair.
    if left is right or (hash(left) == hash(right) and left == right):
        return left
    fields: list[tuple[str, Value]] = []
    right_fields = dict(right.fields)
    for key, value in left.fields:
        other = right_fields.pop(key, None)
        if other is not None:
            fields.append((key, join(value, other)))
        elif not key.startswith("#"):
            fields.append((key, value if key in SHAPE_FIELDS else join(value, UNKNOWN_VALUE)))
    fields.extend(
        (key, value if key in SHAPE_FIELDS else join(value, UNKNOWN_VALUE))
        for key, value in right_fields.items()
        if not key.startswith("#")
    )
    origins = left.origins | right.origins
    if len(origins) > MAX_ORIGINS:
        origins = frozenset(sorted(origins, key=lambda o: (o.span.start, o.label))[:MAX_ORIGINS])
    # Built by position, in the order of the fields (a join is made at every merge point).
    return Value(
        left.tensor | right.tensor,
        left.ctx | right.ctx,
        left.device | right.device,
        left.strategy | right.strategy,
        left.boolean | right.boolean if left.boolean and right.boolean else EMPTY,
        tuple(sorted(fields, key=_field_name)) if len(fields) > 1 else tuple(fields),
        left.params | right.params,
        origins,
        left.closure if left.closure == right.closure else None,
        left.hint | right.hint,
        left.backend | right.backend,
        left.trail or right.trail,
        left.types | right.types,
    )


def _field_name(item: tuple[str, Value]) -> str:
    return item[0]


def join_all(values: list[Value]) -> Value:
    """Join of a non-empty list of values."""
    result = values[0]
    for value in values[1:]:
        result = join(result, value)
    return result


def ctx_of_tensor(tensor: frozenset[str]) -> frozenset[str]:
    """The context a consistent tensor of this kind carries in its `autodiff` field."""
    out: set[str] = set()
    for kind in tensor:
        if kind in ON_AUTODIFF_DEVICE:
            out.add(ENABLED)
        elif kind == FLOAT:
            out.add(DISABLED)
        else:
            out.add(UNKNOWN)
    return frozenset(out)


def device_of_tensor(tensor: frozenset[str]) -> frozenset[str]:
    """The device kind a tensor of this kind reports from `device()`."""
    out: set[str] = set()
    for kind in tensor:
        out.add(AUTODIFF if kind in ON_AUTODIFF_DEVICE else PLAIN if kind == FLOAT else UNKNOWN)
    return frozenset(out)
