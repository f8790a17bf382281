"""Hypothesis strategies for Rust-like programs around burn's dispatch vocabulary: well-formed
programs built from a small grammar (items, statements, control flow, closures, macros), broken
ones (damaged by truncation, unbalanced delimiters, stray bytes, odd newlines and characters),
and mutations of the corpus fixtures."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
FIXTURES: tuple[Path, ...] = tuple(
    sorted(p for p in CORPUS.rglob("*.rs") if "crates" not in p.relative_to(CORPUS).parts)
)
"""The single-file corpus fixtures (buggy and clean programs); their `.fixed` files too."""
FIXED: tuple[Path, ...] = tuple(sorted(CORPUS.rglob("*.fixed")))
BUGGY: tuple[Path, ...] = tuple(p for p in FIXTURES if p.with_suffix(".fixed").exists())

# Identifiers: mostly the few names the statements refer to (so data flows between them), some
# non-ASCII ones (Rust allows Unicode identifiers) and raw identifiers.
TENSORS = ("x", "y", "lhs", "h", "données", "张量", "r#t")
CONTEXTS = ("ctx", "c", "ctx2", "κ")
DEVICES = ("device", "dev", "ad", "設備")
HELPERS = ("ad_device", "plain_device", "eval_ctx", "train_ctx", "wrap", "strip", "head")

USES = (
    "use burn::backend::{ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext,"
    " DispatchDevice, DispatchTensor, GradientCheckpointingStrategy};\n",
    "use burn::backend::{DispatchAutodiffContext as Ctx, DispatchDevice};\n",
    "use burn::tensor::{Device, Distribution, Tensor, TensorData};\n",
    "use crate::dispatch;\n",
)

ident = st.sampled_from(TENSORS)
ctx_name = st.sampled_from(CONTEXTS)
dev_name = st.sampled_from(DEVICES)
helper_name = st.sampled_from(HELPERS)

device_expr = st.one_of(
    st.just("DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))"),
    st.just("DispatchDevice::Flex(Default::default())"),
    st.builds("DispatchDevice::autodiff({})".format, dev_name),
    st.builds(
        "DispatchDevice::autodiff_with_gradient_checkpointing({}, GradientCheckpointingStrategy::Balanced)".format,
        dev_name,
    ),
    st.just("Device::default().autodiff()"),
    st.just("Device::default().autodiff().autodiff()"),
    st.builds("{}()".format, helper_name),
    st.builds("{}.inner()".format, dev_name),
    dev_name,
)

context_expr = st.one_of(
    st.just("DispatchAutodiffContext::Disabled"),
    st.just("Ctx::Disabled"),
    st.just("DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::None)"),
    st.just("Ctx::Enabled(strategy)"),
    st.just("Ctx::default()"),
    st.just("Default::default()"),
    st.builds("{}.autodiff".format, ident),
    st.builds("{}.autodiff.clone()".format, ident),
    st.builds("{}()".format, helper_name),
    st.just("None"),
    ctx_name,
)


def _tensor_expr(leaf: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds("{}.clone()".format, leaf),
        st.builds("<Dispatch as AutodiffBackend>::inner({})".format, leaf),
        st.builds("<Dispatch as AutodiffBackend>::from_inner({})".format, leaf),
        st.builds("{}.inner()".format, leaf),
        st.builds("{}.without_autodiff()".format, leaf),
        st.builds("{}.detach()".format, leaf),
        st.builds("Dispatch::float_exp({})".format, leaf),
        st.builds("Dispatch::float_mul_scalar({}, 0.5f32.into())".format, leaf),
        st.builds("{}({})".format, helper_name, leaf),
        st.builds("dispatch::q_matmul({}, q, {})".format, leaf, context_expr),
        st.builds("DispatchTensor {{ kind: {}.kind, autodiff: {} }}".format, leaf, context_expr),
        st.builds("DispatchTensor {{ autodiff: {}, ..{} }}".format, context_expr, leaf),
        st.builds("(|v: DispatchTensor| {})({})".format, st.just("v"), leaf),
    )


tensor_expr = st.recursive(
    st.one_of(ident, st.builds("Dispatch::float_from_data(d, &{})".format, device_expr)),
    _tensor_expr,
    max_leaves=4,
)

sink = st.builds("dispatch::q_matmul({}, q, {})".format, tensor_expr, context_expr)

simple_statement = st.one_of(
    st.builds("let {} = {};".format, ident, tensor_expr),
    st.builds("let mut {} = {};".format, ident, tensor_expr),
    st.builds("let {} = {};".format, ctx_name, context_expr),
    st.builds("let {} = {};".format, dev_name, device_expr),
    st.builds("{}.autodiff = {};".format, ident, context_expr),
    st.builds("{} = {};".format, ident, tensor_expr),
    st.builds("let _ = {};".format, sink),
    st.builds("{};".format, sink),
    st.builds("let {} = |t: DispatchTensor| {};".format, helper_name, sink),
    st.builds("{}({});".format, helper_name, ident),
    st.builds('println!("{{:?}}", {});'.format, ident),
    st.builds("let v = vec![{}, {}];".format, ident, tensor_expr),
    st.builds(
        "debug_assert!(dispatch::autodiff_tensor_in_enabled_ctx(&{}, &{}));".format, ident, ctx_name
    ),
    st.builds(
        "// burnlint: allow({}) {}".format, st.sampled_from(("BD001", "BD002", "BD404")), sink
    ),
    st.builds('let s = "{}";'.format, sink.map(lambda s: s.replace('"', ""))),
    st.builds("/* {} */".format, sink),
    st.builds("return {};".format, tensor_expr),
    st.just('panic!("unreachable");'),
    st.just("my_macro! { ( ] }"),
)


def _compound(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    block = st.lists(inner, min_size=0, max_size=4).map(lambda xs: "{\n" + "\n".join(xs) + "\n}")
    return st.one_of(
        st.builds("if {}.is_autodiff() {} else {}".format, ident, block, block),
        st.builds("if training {}".format, block),
        st.builds(
            "match mode {{ Mode::Train => {}, Mode::Eval => {}, _ => {{}} }}".format, block, block
        ),
        st.builds("for r in rows {}".format, block),
        st.builds("while let Some({}) = it.next() {}".format, ident, block),
        st.builds("loop {} ".format, block),
        st.builds("let f = |t: DispatchTensor| {};".format, block),
        st.builds("rows.into_iter().for_each(|r| {});".format, block),
        st.builds("{}".format, block),
        st.builds('#[cfg(feature = "autodiff")]\n{}'.format, block),
        st.builds("unsafe {}".format, block),
    )


statement = st.recursive(simple_statement, _compound, max_leaves=12)

param_list = st.lists(
    st.sampled_from(
        (
            "q: DispatchTensor",
            "d: TensorData",
            "x: DispatchTensor",
            "ctx: DispatchAutodiffContext",
            "device: &DispatchDevice",
            "&self",
            "mut self",
            "rows: Vec<TensorData>",
            "strategy: GradientCheckpointingStrategy",
        )
    ),
    max_size=4,
    unique=True,
)

fn_item = st.builds(
    "{}fn {}({}) -> DispatchTensor {{\n{}\n}}\n".format,
    st.sampled_from(("", "pub ", "pub(crate) ", "#[inline]\n", '#[cfg(feature = "autodiff")]\n')),
    st.one_of(helper_name, ident.filter(lambda s: not s.startswith("r#")), st.just("forward")),
    param_list.map(", ".join),
    st.lists(statement, max_size=6).map("\n".join),
)

struct_item = st.builds(
    "pub struct {} {{\n{}\n}}\n".format,
    st.sampled_from(("Model", "Probe", "Cache")),
    st.lists(
        st.sampled_from(
            (
                "h: DispatchTensor,",
                "ctx: DispatchAutodiffContext,",
                "device: DispatchDevice,",
                "cache: Option<DispatchTensor>,",
                "xs: Vec<DispatchTensor>,",
            )
        ),
        max_size=4,
        unique=True,
    ).map("\n".join),
)

impl_item = st.builds(
    "impl {} {{\n{}\n}}\n".format,
    st.sampled_from(("Model", "Probe")),
    st.lists(fn_item, max_size=3).map("\n".join),
)

item = st.one_of(
    fn_item,
    fn_item,
    struct_item,
    impl_item,
    st.builds("mod inner {{\n{}\n}}\n".format, fn_item),
    st.builds("macro_rules! m {{ ($e:expr) => {{ {} }} }}\n".format, sink),
    st.just("const FLAG: bool = false;\n"),
    st.just("//! module docs: DispatchAutodiffContext::Disabled\n"),
    st.just('#![cfg_attr(not(feature = "std"), no_std)]\n'),
)

# A bug planted in a function, with random statements before, between and after its source and
# its sink (which may hide it, sanitize it, or leave it): most such programs have findings.
SEEDS = (
    (
        "let x = Dispatch::float_from_data(d, &DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())));",
        "let out = dispatch::q_matmul(x, q, DispatchAutodiffContext::Disabled);",
    ),
    (
        "let mut x = Dispatch::float_from_data(d, &DispatchDevice::Flex(Default::default()));",
        "x.autodiff = DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Balanced);",
    ),
    (
        "let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));",
        "let dev = DispatchDevice::autodiff(ad);",
    ),
    (
        "let x = Dispatch::float_from_data(d, &DispatchDevice::autodiff(DispatchDevice::Flex(Default::default())));",
        "let y = <Dispatch as AutodiffBackend>::from_inner(x);",
    ),
    ("let ctx = DispatchAutodiffContext::Disabled;", "dispatch::q_matmul(lhs, q, ctx)"),
    ("let device = Device::default().autodiff();", "let device = device.autodiff();"),
)

seeded_fn = st.builds(
    lambda seed, before, between, after: (
        "pub fn seeded(d: TensorData, q: DispatchTensor, lhs: DispatchTensor) -> DispatchTensor {\n"
        + "\n".join([*before, seed[0], *between, seed[1], *after])
        + "\n}\n"
    ),
    st.sampled_from(SEEDS),
    st.lists(statement, max_size=2),
    st.lists(statement, max_size=3),
    st.lists(statement, max_size=2),
)

_program = st.builds(
    lambda uses, items: "".join(uses) + "\n".join(items),
    st.lists(st.sampled_from(USES), max_size=4, unique=True),
    st.one_of(
        st.lists(item, min_size=1, max_size=5),
        st.tuples(st.lists(item, max_size=2), seeded_fn, st.lists(item, max_size=2)).map(
            lambda parts: [*parts[0], parts[1], *parts[2]]
        ),
    ),
)


# The strategies below are composites so that their repr (which hypothesis computes, and which
# would spell the whole grammar out) stays short.
@st.composite
def rust_program(draw: st.DrawFn) -> str:
    """A Rust-like program: syntactically plausible, semantically anything; half of them with
    a planted bug."""
    return draw(_program)


program = rust_program()

# Tokens that are inserted at random places by the damaging and mutating strategies.
TOKENS = (
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "::",
    "=>",
    "|",
    "'",
    '"',
    'r#"',
    "/*",
    "*/",
    "//",
    "#[",
    "!",
    "&",
    "fn",
    "let",
    "impl",
    "match",
    "DispatchAutodiffContext::Disabled",
    "dispatch::q_matmul(",
    "Dispatch::float_from_data(d, &DispatchDevice::autodiff(dev))",
    ".autodiff = ",
    ".inner()",
    "macro_rules!",
    "\x00",
    "\r",
    "\r\n",
    "\t",
    "\u2028",
    "\ufeff",
    "\u200b",
    "é",
    "😀",
    "\ud800",
    "\udcff",
    "\udc80\udc81",
)
token = st.sampled_from(TOKENS)


def _decode_bytes(data: bytes, how: str) -> str:
    return data.decode("utf-8", errors=how)


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A program broken in one or more ways: truncated, a delimiter dropped or doubled, random
    tokens inserted, newline styles mixed, bytes corrupted."""
    text = draw(program)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                (
                    "truncate",
                    "drop-delimiter",
                    "double-delimiter",
                    "insert",
                    "newlines",
                    "bytes",
                    "non-ascii",
                )
            )
        )
        text = _damage(draw, text, kind)
    return text


def _damage(draw: st.DrawFn, text: str, kind: str) -> str:
    at = draw(st.integers(0, len(text)))
    if kind == "truncate":
        return text[:at]
    if kind in ("drop-delimiter", "double-delimiter"):
        spots = [i for i, ch in enumerate(text) if ch in "{}()[]"]
        if not spots:
            return text
        i = draw(st.sampled_from(spots))
        return (
            text[:i] + text[i + 1 :] if kind == "drop-delimiter" else text[:i] + text[i] + text[i:]
        )
    if kind == "insert":
        return text[:at] + draw(token) + text[at:]
    if kind == "newlines":
        style = draw(st.sampled_from(("\r\n", "\r", "\n\r", "\n\n")))
        lines = text.split("\n")
        return (
            "".join(line + (style if draw(st.booleans()) else "\n") for line in lines[:-1])
            + lines[-1]
        )
    if kind == "bytes":
        data = bytearray(text.encode("utf-8", errors="surrogatepass"))
        if data:
            for _ in range(draw(st.integers(1, 3))):
                data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return _decode_bytes(bytes(data), draw(st.sampled_from(("replace", "surrogateescape"))))
    # Non-ASCII identifiers and characters of every UTF-8 width.
    word = draw(
        st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=6)
    )
    return text[:at] + word + text[at:]


broken_program = damaged()


@st.composite
def structureless(draw: st.DrawFn) -> str:
    """Text with no structure at all (lone surrogates included)."""
    alphabet = st.one_of(st.sampled_from("{}()[];:,.&|=<>!#'\" \n\r\t\x00"), st.characters())
    return draw(st.text(alphabet, max_size=400))


arbitrary_text = structureless()


@st.composite
def mutated_fixture(draw: st.DrawFn) -> str:
    """A corpus fixture with random lines deleted, duplicated or swapped, random tokens inserted,
    or cut at a random byte (decoded with replacement or surrogateescape)."""
    # Buggy fixtures (those with a `.fixed` file) more often: mutations of them keep findings.
    path = draw(st.one_of(st.sampled_from(BUGGY), st.sampled_from(FIXTURES + FIXED)))
    text = path.read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 4))):
        lines = text.splitlines(keepends=True)
        kind = draw(st.sampled_from(("delete", "duplicate", "swap", "cut", "insert", "damage")))
        if kind in ("delete", "duplicate", "swap") and lines:
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "delete":
                del lines[i]
            elif kind == "duplicate":
                lines.insert(i, lines[i])
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
        elif kind == "cut":
            data = text.encode("utf-8", errors="surrogatepass")
            cut = draw(st.integers(0, len(data)))
            text = _decode_bytes(data[:cut], draw(st.sampled_from(("replace", "surrogateescape"))))
        elif kind == "insert":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(token) + text[at:]
        else:
            text = _damage(
                draw, text, draw(st.sampled_from(("drop-delimiter", "newlines", "bytes")))
            )
    return text


@st.composite
def anything(draw: st.DrawFn) -> str:
    """Everything the analyzer may be handed: valid, broken, mutated and structureless text."""
    return draw(st.one_of(program, broken_program, mutated_fixture(), arbitrary_text))


any_program = anything()
