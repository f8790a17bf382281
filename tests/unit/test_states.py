"""What the analyzer shows about names (`analysis.states`): labels, paths and origins of the
states the interpreter recorded while it made the findings, and their agreement with the
findings on the whole corpus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, Options
from burnlint.analysis.interp.bindings import MAX_SITES
from burnlint.analysis.semantics.cfg import BuildConfig
from burnlint.analysis.semantics.crates import CrateInfo
from burnlint.analysis.states import BindingState, StateCache, file_states, state_at
from burnlint.analysis.syntax.source import SourceFile
from burnlint.analyzing import LazyAnalyzer
from burnlint.kb.load import load_kb
from burnlint.lsp.crates import CrateCache

ROOT = Path(__file__).resolve().parents[2]
QUANT = ROOT / "examples" / "dispatch-demo" / "src" / "quant.rs"
CORPUS = ROOT / "tests" / "corpus"
ANALYZER = Analyzer(load_kb())
_DIRECTIVE = re.compile(r"^\s*//@\s*(?P<key>[a-z-]+)\s*(?::\s*(?P<value>.*?))?\s*$", re.M)
_ROOT_NAME = re.compile(r"&?(?:mut\s+)?(?P<name>[a-z_][A-Za-z0-9_]*)\b(?!\s*(?:::|\(|!))")

MIXED = """use burn::backend::{Dispatch, DispatchAutodiffContext as Ctx, DispatchDevice};
pub fn pick(data: TensorData, fast: bool, q: DispatchTensor) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let ckpt = ad.clone().gradient_checkpointing();
    let x = if fast { Dispatch::float_from_data(data, &ad) } else { unknown_tensor() };
    let ctx = Ctx::Disabled;
    let rows: Vec<DispatchTensor> = vec![x.clone()];
    rows.iter().map(|r| dispatch::q_matmul(r.clone(), q.clone(), Ctx::Enabled)).count();
    dispatch::q_matmul(x, q, ctx)
}
"""


def session_of(path: str, text: str, era: str | None = None, crate: CrateInfo | None = None):
    session = CrateSession(
        ANALYZER, [CrateFile(SourceFile(path, text))], Options(era=era, states=True), crate
    )
    return session, session.results()[0]


def states_by_name(path: str, text: str) -> dict[str, BindingState]:
    session, _ = session_of(path, text)
    assert session.program is not None
    data = text.encode()
    return {
        data[s.start : s.end].decode(): s for s in file_states(session.program, 0, ANALYZER.api)
    }


def test_labels_paths_and_origins_on_the_example() -> None:
    text = QUANT.read_text(encoding="utf-8")
    states = file_states_in_order(QUANT.as_posix(), text)
    lines = text.splitlines()
    seed = next(s for s in states if s[0] == "autodiff_lhs")
    assert seed[1].label == "autodiff" and seed[1].kind == "let"
    assert seed[1].paths == ("autodiff tensor (checkpointing Disabled) on Flex",)
    assert [(r.range.start.line + 1, r.message) for r in seed[1].origins] == [
        (13, "autodiff device created here"),
        (14, "autodiff tensor created here"),
    ]
    assert "float_from_data" in lines[seed[1].origins[1].range.start.line]
    device = next(s for s in states if s[0] == "device")
    assert device[1].label == "device: autodiff"
    assert {s[1].label for s in states if s[0] == "lhs"} == {"autodiff", "plain"}
    assert all(s[1].dispatch for s in states)


def file_states_in_order(path: str, text: str) -> list[tuple[str, BindingState]]:
    session, _ = session_of(path, text)
    assert session.program is not None
    data = text.encode()
    return [
        (data[s.start : s.end].decode(), s) for s in file_states(session.program, 0, ANALYZER.api)
    ]


def test_some_paths_strategies_contexts_and_collections() -> None:
    states = states_by_name("mixed.rs", MIXED)
    assert states["ad"].label == "device: autodiff"
    assert states["ckpt"].label == "device: autodiff·Balanced"
    assert states["x"].label == "autodiff?" and states["x"].some_paths
    assert states["ctx"].label == "ctx: Disabled"
    assert states["rows"].label == "[autodiff?]"
    assert states["r"].kind == "closure" and states["r"].label == "autodiff?"
    # Unknown shows nothing: `data`, `fast` and `q` are never known.
    assert not {"data", "fast", "q"} & set(states)


def test_hover_state_of_a_read_is_its_binding_state() -> None:
    session, _ = session_of("mixed.rs", MIXED)
    assert session.program is not None
    # A read that is not passed anywhere (a method's receiver): its binding's state.
    offset = MIXED.encode().index(b"x.clone()]")
    found = state_at(session.program, 0, ANALYZER.api, offset)
    assert found is not None
    assert found.name == "x" and found.state.label == "autodiff?"
    assert (found.start, found.end) == (offset, offset + 1)
    assert found.state.start < found.start and found.state.kind == "let"
    # Passed to a call: the value the call (here BD001's sink) got, at the argument.
    offset = MIXED.encode().rindex(b"(x, q, ctx)") + 1
    found = state_at(session.program, 0, ANALYZER.api, offset)
    assert found is not None
    assert found.name == "x" and found.state.label == "autodiff?"
    assert (found.state.start, found.state.kind) == (offset, "arg")
    assert [o.message for o in found.state.origins] == [
        "autodiff device created here",
        "autodiff tensor created here",
    ]
    assert state_at(session.program, 0, ANALYZER.api, MIXED.encode().index(b"TensorData")) is None
    # A call whose value a `let` binds: the binding's state, over the call.
    call = MIXED.encode().index(b"gradient_checkpointing")
    found = state_at(session.program, 0, ANALYZER.api, call)
    assert (
        found is not None and found.name == "" and found.state.label == "device: autodiff·Balanced"
    )
    assert MIXED.encode()[found.start : found.end] == b"ad.clone().gradient_checkpointing()"


def test_states_are_bounded_cached_and_dropped_with_the_analysis() -> None:
    lets = "\n".join(
        f"    let t{i} = Dispatch::float_from_data(d.clone(), &ad);" for i in range(600)
    )
    text = (
        "use burn::backend::{Dispatch, DispatchDevice};\n"
        "pub fn many(d: TensorData, q: DispatchTensor) {\n"
        "    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));\n"
        f"{lets}\n    dispatch::q_matmul(t0, q, Ctx::Disabled);\n}}\n"
    )
    session, _ = session_of("many.rs", text)
    program = session.program
    assert program is not None
    cache = StateCache()
    first = file_states(program, 0, ANALYZER.api, cache=cache)
    assert len(first) == MAX_SITES
    assert file_states(program, 0, ANALYZER.api, cache=cache) == first
    [log] = program.binding_logs(0)
    session.update(0, SourceFile("many.rs", text.replace("t0, q", "t1, q")))
    session.results()
    assert program.binding_logs(0) and log not in program.binding_logs(0)


def _crate_of(directives: dict[str, str]) -> CrateInfo | None:
    build = directives.get("build")
    if not build:
        return None
    features = frozenset({"autodiff"}) if build == "optional" else frozenset[str]()
    config = BuildConfig(declared=features, assume_on=frozenset({"autodiff"}) | features)
    return CrateInfo(None, "fixture", config, "", None, "", build, features)


REFINED = {"b_negated_guard_else_branch.rs"}
"""Fixtures whose sink's tensor is a parameter known to be autodiff only inside a branch
(a guard refines it after its binding): its binding has no state to show."""


class Agreement:
    """BD001 sinks sorted by what the state of their tensor argument's name says."""

    def __init__(self) -> None:
        self.agree: list[str] = []
        self.unnamed: list[str] = []
        self.refined: list[str] = []
        self.arguments = 0
        """Sinks at calls: their tensor argument's hover is checked."""
        self.unshown: list[str] = []
        """Sinks at calls whose tensor argument's hover shows no autodiff state."""

    def check(self, session: CrateSession, index: int, findings: set[int], shown: str) -> None:
        """Every firing BD001 observation of file `index` that made one of `findings`."""
        program = session.program
        assert program is not None
        data = program.units[index].source.data
        for observation in program.observations(index, analyzed_only=True):
            site = observation.site
            firing = any(v in ("must", "may") and not lossy for v, lossy in observation.verdicts)
            if site.code != "BD001" or site.span.start not in findings or not firing:
                continue
            tensor = site.role_span("tensor")
            assert tensor is not None
            argument = data[tensor.start : tensor.end].decode()
            where = f"{shown}: `{argument[:50]}`"
            if site.kind == "call":
                # Hovering the argument's last byte (the argument itself, or the innermost
                # name, field read or call there) shows the value the sink got.
                passed = state_at(program, index, ANALYZER.api, tensor.end - 1)
                self.arguments += 1
                if passed is None or "autodiff" not in passed.state.label:
                    self.unshown.append(f"{where}: {passed and passed.state.label}")
            rooted = _ROOT_NAME.match(argument)
            if rooted is None or rooted["name"] == "self":
                self.unnamed.append(where)
                continue
            offset = tensor.start + rooted.start("name")
            found = state_at(program, index, ANALYZER.api, offset)
            if found is None and Path(shown).name in REFINED:
                self.refined.append(where)
                continue
            assert found is not None, f"{where}: no state for `{rooted['name']}`"
            label = found.state.label
            assert "autodiff" in label and "plain" not in label, f"{where}: {label}"
            self.agree.append(where)


@pytest.mark.timeout(300)
def test_every_bd001_sink_tensor_named_by_a_local_has_an_autodiff_state() -> None:
    """Hints and findings never disagree: at each BD001 finding of the corpus (its files and
    its crates), the tensor argument, when it is a local name (or starts with one:
    `x.clone()`, `&x`), has a state, and it says autodiff; at a call, hovering the tensor
    argument itself (a name, field read or call) says autodiff too."""
    seen = Agreement()
    for path in sorted(CORPUS.glob("*/*.rs")):
        text = path.read_text(encoding="utf-8")
        directives = {m["key"]: m["value"] or "" for m in _DIRECTIVE.finditer(text)}
        era = directives.get("era") or None
        session, result = session_of(path.as_posix(), text, era, _crate_of(directives))
        findings = {f.range.start_byte for f in result.findings if f.code == "BD001"}
        if findings and session.program is not None:
            seen.check(session, 0, findings, str(path.relative_to(CORPUS)))
    in_files = len(seen.agree)
    cache = CrateCache(LazyAnalyzer(ANALYZER.entries))
    for manifest in sorted((CORPUS / "crates").rglob("Cargo.toml")):
        sources = sorted((manifest.parent / "src").rglob("*.rs"))
        if not sources:
            continue
        report = cache.analyze(sources[0], {}, Options(states=True), True)
        session = report.session
        if session is None or session.program is None:
            continue
        for index, (file, result) in enumerate(zip(session.files, session.results(), strict=True)):
            findings = {f.range.start_byte for f in result.findings if f.code == "BD001"}
            if file.target and findings:
                seen.check(session, index, findings, file.source.path)
    assert len(seen.agree) >= 130, seen.agree
    assert len(seen.agree) > in_files, "the crates' BD001 sinks were checked too"
    assert len(seen.refined) == 1, seen.refined
    # Struct literals, `self` fields and calls are not names: no hint is expected there.
    assert len(seen.unnamed) <= 8, seen.unnamed
    assert seen.arguments >= 120 and seen.unshown == [], seen.unshown


CALLERS = """use burn::backend::{Dispatch, DispatchDevice};
fn keep(t: DispatchTensor) -> DispatchTensor { t }
pub fn unknown(t: DispatchTensor) -> DispatchTensor { keep(t) }
pub fn made(d: TensorData) -> DispatchTensor {
    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    keep(Dispatch::float_from_data(d, &ad))
}
pub fn plain(d: TensorData) -> DispatchTensor {
    keep(Dispatch::float_from_data(d, &DispatchDevice::Flex(Default::default())))
}
"""


def test_a_parameter_joins_what_its_callers_pass() -> None:
    # `keep`'s `t`: autodiff from `made`, plain from `plain`, unknown from `unknown`.
    [param] = [s for s in file_states_in_order("callers.rs", CALLERS) if s[1].kind == "param"]
    name, state = param
    assert name == "t" and state.start == CALLERS.index("fn keep(t") + len("fn keep(")
    assert state.label == "autodiff?" and state.some_paths
    assert set(state.paths) == {
        "autodiff tensor (checkpointing Disabled) on Flex",
        "plain tensor on Flex",
    }


def test_a_kept_read_sees_a_callee_start_touching_dispatch_code() -> None:
    """A caller's binding log keeps the state of the parameter it passes to its only callee.
    An edit of the same length inside the callee (a comment now naming `Dispatch`) keeps the
    caller's analysis, but the parameter's hint now shows by default: a read that keeps states
    must notice, as a fresh one does."""
    text = (
        "use burn::backend::{Dispatch, DispatchDevice};\n"
        "pub fn caller(d: TensorData) {\n"
        "    let ad = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));\n"
        "    helper(Dispatch::float_from_data(d, &ad));\n"
        "}\n"
        "fn helper(t: FloatTensor) { // xxxxxxxx\n    drop(t);\n}\n"
    )
    session, _ = session_of("callee.rs", text)
    program = session.program
    assert program is not None
    kept = StateCache()

    def read(cache: StateCache) -> list[BindingState]:
        # Without origins, as for editors that resolve tooltips: with them, any edit makes
        # every state anew (the origins are placed per version of the files).
        return file_states(program, 0, ANALYZER.api, cache=cache, with_origins=False)

    before = {s.start: s for s in read(kept)}
    param = text.index("helper(t") + len("helper(")
    assert param in before and not before[param].dispatch
    caller = program.binding_log(next(d for d in program.decls if d.name == "caller"))
    old = session.files[0].source
    session.update(0, SourceFile(old.path, text.replace("xxxxxxxx", "Dispatch"), previous=old))
    session.results()
    assert program.binding_log(next(d for d in program.decls if d.name == "caller")) is caller
    after = read(kept)
    assert after == read(StateCache())
    assert {s.start: s for s in after}[param].dispatch
