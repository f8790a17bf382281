"""What the analyzer is told about a crate: name, features, burn version, era and build.

Plain data, filled in by the project model (`burnlint.project`, which reads Cargo manifests);
nothing here touches the disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from burnlint.analysis.semantics.cfg import BuildConfig


@dataclass(frozen=True, slots=True)
class CrateInfo:
    """What burnlint knows about the crate around a file."""

    manifest: Path | None
    name: str
    config: BuildConfig
    burn_version: str
    era: str | None
    era_reason: str
    build: str = "unknown"
    """Whether burn's `autodiff` feature is "on", "off", "optional" or "unknown" for this crate."""
    autodiff_features: frozenset[str] = frozenset()
    """The crate's own features that turn burn's `autodiff` feature on."""
    lib_name: str = ""
    """The name other crates use for it (`[lib] name`, else the package name, `-` as `_`)."""
    deps: tuple[tuple[str, Path], ...] = ()
    """Crates of the same workspace or `path` dependencies this crate may name, as (name in
    code, manifest). burn's own crates are never listed: the knowledge base describes them."""

    def off_config(self) -> BuildConfig | None:
        """The build with burn's autodiff off, when the crate can be built that way too."""
        if self.build != "optional":
            return None
        config = self.config
        return BuildConfig(
            enabled=config.enabled - self.autodiff_features,
            declared=config.declared,
            assume_on=frozenset(),
            disabled=self.autodiff_features,
        )
