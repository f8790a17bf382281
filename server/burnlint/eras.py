"""The burn API eras: shared vocabulary of the analyzer, the knowledge base and configuration.

burn's dispatch API changed shape on 2026-08 (`checkpointing: Option<..>`) and again in
0.22.0-pre.4 (`DispatchAutodiffContext`). Which era a crate targets decides which rules and
panic texts apply; this module names the eras and decides them from versions and text.
"""

from __future__ import annotations

import re

CONTEXT = "context"
CHECKPOINTING = "checkpointing"
GENERIC = "generic"
DISPATCH_ERAS = (CONTEXT, CHECKPOINTING)
"""The eras whose dispatch API users can touch; the knowledge base's panics are written per era."""
ERAS = (*DISPATCH_ERAS, GENERIC)
"""Every era: `generic` is burn <= 0.21 (generic `Tensor<B, D, K>`, `DispatchTensor` fields
`pub(crate)`), where no dispatch rule applies and nothing is analyzed."""
#: A burn version or requirement: `0.22.0-pre.4`, `0.21`, `^0.20.1`.
VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?(?:-pre\.(\d+))?")
_CONTEXT_MARKERS = re.compile(
    # `DispatchAutodiffContext`, `without_autodiff`, and `autodiff:` as a field (not the module
    # path `autodiff::`, nor a `bool` flag of the user's own struct). Each starts at the
    # literal `utodiff` and looks back for the rest: a pattern that begins with a literal is
    # searched for it at C speed, an alternation is tried at every byte (1 s on 12 MB).
    rb"utodiff(?:(?<=DispatchAutodiff)Context"
    rb"|(?<=\bwithout_autodiff)\b"
    rb"|(?<=\bautodiff)\s*:(?!:)(?!\s*(?:bool|true|false)\b))"
)
_CHECKPOINTING_MARKERS = re.compile(
    # `checkpointing:`, `.checkpointing` and `CheckpointingStrategy::None` (`.no_grad()` is
    # counted apart: it shares no literal with them).
    rb"heckpointing(?:(?<=\bcheckpointing)\s*:|(?<=\.checkpointing)\b"
    rb"|(?<=\bCheckpointing)Strategy::None\b)"
)


def era_from_version(version: str, git: bool = False) -> str | None:
    """The era of a burn version (a `Cargo.lock` version or a requirement such as `"0.20"` or
    `"^0.21"`); None when the version does not decide it. A git revision carries the version of
    the release before it (burn's main said 0.21.0 while the `checkpointing` API was public, and
    0.22.0-pre.3 while the context API landed), so only later versions decide it there."""
    match = VERSION.search(version)
    if match is None:
        return None
    major, minor, _, pre = (int(g) if g is not None else None for g in match.groups())
    assert major is not None and minor is not None
    if (major, minor) > (0, 22) or ((major, minor) == (0, 22) and (pre is None or pre >= 4)):
        return CONTEXT
    if git and ((major, minor) < (0, 22) or pre == 3):
        return None
    if (major, minor) < (0, 22):
        return GENERIC
    return CHECKPOINTING


def describe_era(era: str, version: str, where: str) -> str:
    what = {
        GENERIC: "generic `Tensor<B, D, K>` API, dispatch rules do not apply",
        CHECKPOINTING: "`checkpointing` field API",
        CONTEXT: "`DispatchAutodiffContext` API",
    }[era]
    return f"burn {version} in {where} ({what})"


_GENERIC_TENSOR = re.compile(rb"Tensor(?<!\wTensor)\s*<\s*[A-Za-z_][\w:]*\s*,\s*\d+\s*[,>]")
"""A tensor type with a backend before its dimension (`Tensor<B, 2>`, `Tensor<Wgpu, 1, Int>`):
burn <= 0.21's `Tensor<B, D, K>`. From 0.22 the dimension comes first (`Tensor<2, Int>`)."""
_COMMENT = re.compile(rb"//[^\n]*|/\*.*?\*/", re.DOTALL)
"""Comments, where burn's own 0.22 sources still show `Tensor<B, 1, Bool>` in stale docs."""


def era_from_text(data: bytes) -> tuple[str, str]:
    """Guess the era from the field and method names a file uses, and, when it uses none of
    the dispatch eras', from the shape of the tensor types its code writes."""
    context = len(_CONTEXT_MARKERS.findall(data))
    checkpointing = len(_CHECKPOINTING_MARKERS.findall(data)) + data.count(b".no_grad()")
    if checkpointing > context:
        return CHECKPOINTING, "the file uses the `checkpointing` field (burn 2026-08 API)"
    if not context and _GENERIC_TENSOR.search(data) is not None:
        generic = _GENERIC_TENSOR.search(_COMMENT.sub(b"", data))
        if generic is not None:
            found = generic.group()
            written = re.sub(rb"\s+", b"", found[:-1]).replace(b",", b", ").decode(errors="replace")
            written += ", ..>" if found.endswith(b",") else ">"
            return GENERIC, (
                f"the code writes `{written}`: burn <= 0.21's generic `Tensor<B, D, K>` API,"
                " dispatch rules do not apply"
            )
    return CONTEXT, "burn >= 0.22.0-pre.4 API (`DispatchAutodiffContext`) assumed"
