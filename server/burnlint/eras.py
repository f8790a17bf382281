"""The burn API eras: shared vocabulary of the analyzer, the knowledge base and configuration.

burn's dispatch API changed shape on 2026-08 (`checkpointing: Option<..>`) and again in
0.22.0-pre.4 (`DispatchAutodiffContext`). Which era a crate targets decides which rules and
panic texts apply; this module names the eras and decides them from versions and text.
"""

from __future__ import annotations

import re

CONTEXT = "context"
CHECKPOINTING = "checkpointing"
ERAS = (CONTEXT, CHECKPOINTING)
_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)(?:-pre\.(\d+))?")
_CONTEXT_MARKERS = re.compile(rb"DispatchAutodiffContext|\bwithout_autodiff\b|\bautodiff\s*:")
_CHECKPOINTING_MARKERS = re.compile(
    rb"\bcheckpointing\s*:|\.checkpointing\b|\bCheckpointingStrategy::None\b|\.no_grad\(\)"
)


def era_from_version(version: str) -> str | None:
    """The era of a published burn version; None when the version does not decide it."""
    match = _VERSION.search(version)
    if match is None:
        return None
    major, minor, patch, pre = (int(g) if g is not None else None for g in match.groups())
    assert major is not None and minor is not None and patch is not None
    if (major, minor) > (0, 22) or ((major, minor) == (0, 22) and (pre is None or pre >= 4)):
        return CONTEXT
    if (major, minor) < (0, 22):
        # The dispatch API before 0.22 only had the `checkpointing` field.
        return CHECKPOINTING
    return None


def era_from_text(data: bytes) -> tuple[str, str]:
    """Guess the era from the field and method names a file uses."""
    context = len(_CONTEXT_MARKERS.findall(data))
    checkpointing = len(_CHECKPOINTING_MARKERS.findall(data))
    if checkpointing > context:
        return CHECKPOINTING, "the file uses the `checkpointing` field (burn 2026-08 API)"
    return CONTEXT, "burn >= 0.22.0-pre.4 API (`DispatchAutodiffContext`) assumed"
