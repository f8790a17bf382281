"""The policy that turns what was observed at a sink into a judgement, before any text is made:
does the site report, is the bug certain (every path, no lossy join) or possible, and may its
fixes be applied everywhere the site is reached. `engine` renders a judgement into a finding
(message, related locations, fixes) with the knowledge-base entry's templates."""

from __future__ import annotations

from dataclasses import dataclass

from burnlint.analysis.interp.sinks import Observation


@dataclass(frozen=True, slots=True)
class Judgement:
    """A sink that reports: `certain` when every path reaching it panics (then the entry's
    severity and its certain message apply; else a warning worded "may"), and `guarded` when
    a fix must be marked unsafe (the bug is not certain, or the site is also reached in a
    context without it)."""

    observation: Observation
    certain: bool
    guarded: bool
    plain_path: bool = False
    """Some context reaches the edited site with a plain float tensor: a fix that strips or
    adds autodiff there would break that context (such fixes are withheld)."""

    @property
    def code(self) -> str:
        return self.observation.site.code


def judge(
    observation: Observation,
    select: frozenset[str] | None = None,
    shared: bool = False,
    plain_path: bool = False,
) -> Judgement | None:
    """The judgement on one observation; None when it reports nothing: its code is not
    selected, no path panics, or only paths through lossy joins do (a lossy join pairs facts
    of paths that may never meet, so it can say "may" about code that is fine). `shared`: the
    same edit site is reached in another context that has no bug."""
    if select is not None and observation.site.code not in select:
        return None
    precise = [v for v, lossy in observation.verdicts if v in ("must", "may") and not lossy]
    if not precise:
        return None
    certain = all(v == "must" and not lossy for v, lossy in observation.verdicts)
    if observation.only_certain and not certain:
        return None
    return Judgement(observation, certain, not certain or shared, plain_path)
