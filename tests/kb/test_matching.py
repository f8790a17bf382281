"""Panic text -> knowledge-base entry: every message of every entry, with realistic placeholder
values, through the shapes burn's panics take in real output (both panic header formats,
backtraces, colours, Windows line ends, the panic macros' decorations, `expect` suffixes), plus
the log parser's reading of cargo test output."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from burnlint.kb.load import load_kb
from burnlint.kb.match import DECORATIONS, best_matches, find_matches, normalize
from burnlint.kb.model import Entry
from burnlint.panic_log import analyze, burn_source, parse_panics, user_frames

ENTRIES = load_kb()
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
# Values burn really formats into its messages: devices, backends, contexts, shapes, node ids.
VALUES = ("Flex", "Cuda(0)", "Enabled(Balanced)", "[2, 3]", "NodeId { value: 17 }", "7")
BARE = (
    "internal error: entered unreachable code",
    "not implemented",
    "not yet implemented",
    "explicit panic",
)
REGISTRY = "/home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"
LOCATION = f"{REGISTRY}/burn-dispatch-0.22.0-pre.4/src/ops/qtensor.rs:298:25"
OS_ERROR = 'Os { code: 2, kind: NotFound, message: "No such file or directory" }'


def cases() -> list[tuple[Entry, str, str]]:
    out: list[tuple[Entry, str, str]] = []
    for entry in ENTRIES:
        seen: set[str] = set()
        for message, era in entry.all_messages():
            if message not in seen:
                seen.add(message)
                out.append((entry, message, era))
    return out


CASES = cases()


def fill(message: str) -> str:
    """The message as burn prints it: placeholders replaced by values, `{{` `}}` unescaped."""
    counter = iter(range(1000))

    def value(found: re.Match[str]) -> str:
        token = found.group()
        if token in ("{{", "}}"):
            return token[0]
        return VALUES[next(counter) % len(VALUES)]

    return PLACEHOLDER.sub(value, message)


def decorated(message: str) -> bool:
    return message.startswith(DECORATIONS) or message in BARE


def literal_length(message: str) -> int:
    return len(PLACEHOLDER.sub("", message))


def shapes(message: str) -> dict[str, str]:
    """Realistic texts holding `message` (already filled in)."""
    new = f"thread 'main' panicked at {LOCATION}:\n{message}\n"
    note = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    frames = (
        "stack backtrace:\n"
        "   0: rust_begin_unwind\n"
        "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:665:5\n"
        "   1: core::panicking::panic_fmt\n"
        "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs:74:14\n"
        "  12: my_crate::train::step\n"
        "             at ./src/train.rs:42:17\n"
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n"
    )
    out = {
        "bare": message,
        "new-header": new + note,
        "thread-id": f"thread 'train::tests::step' (81234) panicked at {LOCATION}:\n{message}\n"
        + note,
        "old-header": f"thread 'main' panicked at '{message}', {LOCATION}\n" + note,
        "backtrace": new + frames,
        "full-backtrace": new
        + "stack backtrace:\n"
        + "   0:     0x55d4c5a1b2c3 - std::backtrace_rs::backtrace::libunwind::trace::h5a3c3b4d3e2f1a0b\n"
        + "                               at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/../../backtrace/src/backtrace/libunwind.rs:116:5\n"
        + "  14:     0x55d4c59f0e11 - my_crate::train::step::h0123456789abcdef\n"
        + "                               at /work/my_crate/src/train.rs:42:17\n",
        "coloured": f"\x1b[1m\x1b[31mthread 'main' panicked at {LOCATION}:\x1b[0m\n"
        f"\x1b[31m{message}\x1b[0m\n{note}",
        "crlf": (new + note).replace("\n", "\r\n"),
        "quoted": f'"{message}"',
        "test-section": "running 2 tests\ntest train::step ... FAILED\n\nfailures:\n\n"
        f"---- train::step stdout ----\n\n{new}{note}\n\nfailures:\n    train::step\n\n"
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
    }
    if not decorated(message):
        out["unreachable"] = new.replace(
            message, f"internal error: entered unreachable code: {message}"
        )
        out["unimplemented"] = new.replace(message, f"not implemented: {message}")
        out["todo"] = new.replace(message, f"not yet implemented: {message}")
        out["assert_eq"] = new.replace(
            message,
            f"assertion `left == right` failed: {message}\n  left: Disabled\n right: Enabled(Balanced)",
        )
        out["old-assert_eq"] = (
            f"thread 'main' panicked at 'assertion failed: `(left == right)`\n"
            f"  left: `Disabled`,\n right: `Enabled(Balanced)`: {message}', {LOCATION}\n"
        )
    if message not in BARE and literal_length(message) >= 10:
        # `.expect(msg)` appends the error; too short a message cannot be told from other text.
        out["expect"] = new.replace(message, f"{message}: {OS_ERROR}")
    return out


def same_message(a: str, b: str) -> bool:
    return normalize(a) == normalize(b)


def check_ranked_first(entry: Entry, message: str, text: str) -> None:
    matches = find_matches(ENTRIES, text)
    top = best_matches(matches)
    ids = [m.entry.id for m in top]
    assert entry.id in ids, f"{entry.id} not ranked first for {text!r}: {matches[:3]}"
    for match in top:
        assert match.entry.id == entry.id or same_message(match.message, message), (
            f"{match.entry.id} ({match.message!r}) ties with {entry.id} for {text!r}"
        )


@pytest.mark.parametrize(
    ("entry", "message", "era"), CASES, ids=[f"{e.id}:{m[:40]}" for e, m, _ in CASES]
)
def test_every_message_ranks_its_entry_first_in_every_shape(
    entry: Entry, message: str, era: str
) -> None:
    filled = fill(message)
    for shape, text in shapes(filled).items():
        try:
            check_ranked_first(entry, message, text)
        except AssertionError as error:
            raise AssertionError(f"[{shape}] {error}") from None


@pytest.mark.parametrize(
    ("entry", "message", "era"), CASES, ids=[f"{e.id}:{m[:40]}" for e, m, _ in CASES]
)
def test_every_message_is_found_in_a_log(entry: Entry, message: str, era: str) -> None:
    filled = fill(message)
    for shape in ("new-header", "old-header", "backtrace", "coloured", "crlf", "test-section"):
        text = shapes(filled)[shape]
        [panic] = parse_panics(text)
        assert panic.location is not None and str(panic.location) == LOCATION, shape
        [group] = analyze(ENTRIES, text, Path("/work/my_crate"))
        assert entry.id in {m.entry.id for m in group.best}, (shape, group.matches[:3])


def test_the_message_template_itself_matches_its_entry() -> None:
    # Pasting the message straight from burn's source (placeholders included) also works.
    for entry, message, _ in CASES:
        check_ranked_first(entry, message, message)


def test_a_long_enough_start_of_a_message_matches_as_a_prefix() -> None:
    for entry, message, _ in CASES:
        bare = normalize(message)
        head = bare[: max(12, len(bare) * 2 // 3)].rstrip()
        # A bare `unreachable!()` message starts every unreachable panic: it only matches whole;
        # under 12 characters a start of a message is too vague to match.
        if len(head) >= len(bare) or len(head) < 12 or "{" in head or message in BARE:
            continue
        matches = find_matches(ENTRIES, head)
        assert entry.id in {m.entry.id for m in matches}, (head, matches[:3])


def test_matching_one_text_is_fast() -> None:
    texts = [shapes(fill(message))["backtrace"] for _, message, _ in CASES]
    find_matches(ENTRIES, texts[0])  # compile the patterns once
    started = time.perf_counter()
    for text in texts:
        find_matches(ENTRIES, text)
    per_text = (time.perf_counter() - started) / len(texts)
    assert per_text < 0.005, f"{per_text * 1000:.2f} ms per text"


def test_unrelated_text_matches_nothing() -> None:
    for text in (
        "this is not a burn panic at all",
        "thread 'main' panicked at src/main.rs:3:5:\nindex out of bounds: the len is 3 but the index is 7",
        "called `Option::unwrap()` on a `None` value",
        "",
        "   ",
    ):
        assert find_matches(ENTRIES, text) == [], text


def test_ranking_prefers_exact_then_fewer_wildcards() -> None:
    [entry] = [e for e in ENTRIES if e.id == "BD001"]
    exact = find_matches((entry,), entry.message)[0]
    suffixed = find_matches((entry,), f"{entry.message}: {OS_ERROR}")[0]
    prefix = find_matches((entry,), entry.message[:30])[0]
    assert (exact.kind, suffixed.kind, prefix.kind) == ("exact", "placeholder", "prefix")
    assert exact.score > suffixed.score > prefix.score


# The log parser.

CARGO_TEST = """\
running 3 tests
test quant::tests::a ... FAILED
test quant::tests::b ... FAILED
test quant::tests::c ... ok

failures:

---- quant::tests::a stdout ----

thread 'quant::tests::a' panicked at src/quant.rs:16:15:
first line of a message
  an indented second line

---- quant::tests::b stdout ----

thread 'quant::tests::b' panicked at 'old style
spanning two lines', src/quant.rs:44:5
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

failures:
    quant::tests::a
    quant::tests::b

test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out
"""


def test_cargo_test_output_gives_each_panic_its_test_and_message() -> None:
    first, second = parse_panics(CARGO_TEST)
    assert (first.test, first.thread) == ("quant::tests::a", "quant::tests::a")
    assert first.message == "first line of a message\n  an indented second line"
    assert str(first.location) == "src/quant.rs:16:15"
    assert second.test == "quant::tests::b"
    assert second.message == "old style\nspanning two lines"
    assert str(second.location) == "src/quant.rs:44:5"


def test_backtrace_frames_and_the_first_user_frame() -> None:
    text = shapes("an autodiff float primitive must have an enabled autodiff context")["backtrace"]
    [panic] = parse_panics(text)
    assert [f.function for f in panic.frames] == [
        "rust_begin_unwind",
        "core::panicking::panic_fmt",
        "my_crate::train::step",
    ]
    [frame, *_] = user_frames(panic, Path("/work/my_crate"))
    assert (frame.function, str(frame.location)) == (
        "my_crate::train::step",
        "./src/train.rs:42:17",
    )
    full = shapes("x")["full-backtrace"]
    [panic] = parse_panics(full)
    assert panic.frames[0].address == "0x55d4c5a1b2c3"
    assert panic.frames[1].function == "my_crate::train::step"  # the symbol hash is dropped
    [frame, *_] = user_frames(panic, Path("/work/my_crate"))
    assert str(frame.location) == "/work/my_crate/src/train.rs:42:17"
    # The same absolute path is not the user's code when the workspace is elsewhere.
    assert user_frames(panic, Path("/elsewhere")) == []


def test_duplicate_panics_are_counted_once_per_message_and_location() -> None:
    block = f"thread 't{{}}' panicked at {LOCATION}:\nGot backends Flex and Cuda(0)\n"
    text = "".join(block.format(n) for n in range(3))
    text += f"thread 'u' panicked at {LOCATION.replace(':298:', ':317:')}:\nGot backends Flex and Cuda(0)\n"
    groups = analyze(ENTRIES, text, Path("/work/my_crate"))
    assert [g.count for g in groups] == [3, 1]
    assert groups[0].threads == ["t0", "t1", "t2"]


@pytest.mark.parametrize(
    ("path", "described", "era"),
    [
        (
            f"{REGISTRY}/burn-dispatch-0.22.0-pre.4/src/ops/qtensor.rs",
            "burn-dispatch 0.22.0-pre.4",
            "context",
        ),
        (
            f"{REGISTRY}/burn-autodiff-0.21.0/src/runtime/server.rs",
            "burn-autodiff 0.21.0",
            "generic",
        ),
        (
            "C:\\Users\\dev\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\burn-tensor-0.23.1\\src\\lib.rs",
            "burn-tensor 0.23.1",
            "context",
        ),
        (
            "/home/dev/.cargo/git/checkouts/burn-178c6829f420dae1/0e2dc6b/crates/burn-dispatch/src/macros.rs",
            "burn git 0e2dc6b (burn-dispatch)",
            None,
        ),
        ("crates/burn-dispatch/src/macros.rs", "burn-dispatch (burn source checkout)", None),
    ],
)
def test_the_location_names_burn_and_its_era(path: str, described: str, era: str | None) -> None:
    source = burn_source(path)
    assert source is not None and source.describe() == described
    # A message that exists in every era leaves the era to the location.
    text = f"thread 'main' panicked at {path}:10:5:\nsomething burnlint does not know\n"
    [group] = analyze(ENTRIES, text, Path("/work/my_crate"))
    assert group.era == era, group.era_reason


def test_user_code_is_not_burn_std_or_a_dependency() -> None:
    assert burn_source("src/train.rs") is None
    root = Path("/work/my_crate")
    for path in (
        "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs",
        f"{REGISTRY}/serde-1.0.200/src/de.rs",
        f"{REGISTRY}/burn-dispatch-0.22.0/src/ops/qtensor.rs",
        "/somewhere/else/src/main.rs",
    ):
        text = f"thread 'main' panicked at {path}:1:1:\nboom\n"
        [panic] = parse_panics(text)
        assert user_frames(panic, root) == [], path
    [panic] = parse_panics("thread 'main' panicked at src/train.rs:42:17:\nboom\n")
    assert [str(f.location) for f in user_frames(panic, root)] == ["src/train.rs:42:17"]
