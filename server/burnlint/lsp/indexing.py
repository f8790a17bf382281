"""The workspace scan (setting `scope: workspace`): analyze every crate of the workspace folders
in the background, reporting `$/progress` the user can cancel."""

from __future__ import annotations

import asyncio
import itertools
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from lsprotocol import types

from burnlint.lsp.crates import crate_files, crate_key
from burnlint.lsp.documents import path_of, uri_of
from burnlint.lsp.host import Host

if TYPE_CHECKING:
    from pygls.workspace import Workspace

    from burnlint.lsp.diagnostics import Pipeline

logger = logging.getLogger(__name__)
_TOKENS = itertools.count(1)


class ScanHost(Host, Protocol):
    """The server as the workspace scan sees it: the pipeline's view, the pipeline itself, the
    workspace folders, and the client's progress reports."""

    @property
    def pipeline(self) -> Pipeline: ...

    @property
    def workspace(self) -> Workspace: ...

    @property
    def cancelled_progress(self) -> set[str]:
        """Work done progress tokens the user cancelled."""
        ...

    async def window_work_done_progress_create_async(
        self, params: types.WorkDoneProgressCreateParams
    ) -> None:
        """Ask the client for a progress token."""
        ...

    def progress(self, params: types.ProgressParams) -> None:
        """Report progress to the client."""
        ...


def workspace_roots(server: ScanHost) -> list[Path]:
    """The workspace folders on disk (the root URI when the client sent no folders)."""
    uris = [folder.uri for folder in server.workspace.folders.values()]
    if not uris and server.workspace.root_uri:
        uris = [server.workspace.root_uri]
    roots = [path_of(uri) for uri in uris]
    return [root for root in roots if root is not None and root.is_dir()]


def _collect(roots: list[Path], limit: int) -> tuple[list[tuple[str, Path]], int]:
    """Every crate under `roots`: its name for the progress message and one of its files; and
    how many Rust files there are (no crate when that is over `limit`)."""
    groups: dict[Path, Path] = {}
    total = 0
    for root in roots:
        for key, files in crate_files(root).items():
            total += len(files)
            groups.setdefault(key, files[0])
    if total > limit:
        return [], total
    crates = [
        (key.parent.name if key.name == "Cargo.toml" else key.name, file)
        for key, file in groups.items()
    ]
    return crates, total


async def index_workspace(server: ScanHost, progress: bool) -> None:
    """Analyze every crate once, publishing diagnostics for all their files; stops early when
    the user cancels, the settings change or the server shuts down."""
    pipeline = server.pipeline
    generation = server.generation
    loop = asyncio.get_running_loop()
    roots = workspace_roots(server)
    limit = min((pipeline.project_settings(root).max_files for root in roots), default=0)
    crates, total = await loop.run_in_executor(pipeline.executor, _collect, roots, limit)
    if total > limit:
        message = (
            f"burnlint: the workspace has {total} Rust files, more than max-files ({limit}); "
            "only open files are checked. Raise max-files in burnlint.toml to index it."
        )
        logger.warning("%s", message)
        server.window_show_message(types.ShowMessageParams(types.MessageType.Warning, message))
        return
    token = await _begin(server, len(crates)) if progress and server.support.progress else None
    done = 0
    try:
        for name, file in crates:
            if token in server.cancelled_progress:
                break
            if generation != server.generation or pipeline.closed:
                break
            if token is not None:
                percentage = done * 100 // max(1, len(crates))
                message = f"{name} ({done + 1}/{len(crates)})"
                _send(
                    server,
                    token,
                    types.WorkDoneProgressReport(message=message, percentage=percentage),
                )
            await pipeline.run(uri_of(file))
            done += 1
            key = await loop.run_in_executor(None, crate_key, file)
            open_keys = {crate_key(d.path) for d in server.documents.all() if d.path is not None}
            if key not in open_keys:
                # Its diagnostics are published; keeping the analysis of a crate no editor
                # shows would hold every crate of a large workspace in memory at once.
                pipeline.drop_crate(key)
    finally:
        if token is not None:
            message = f"{done} of {len(crates)} crates analyzed"
            _send(server, token, types.WorkDoneProgressEnd(message=message))


async def _begin(server: ScanHost, total: int) -> str | None:
    token = f"burnlint/index/{next(_TOKENS)}"
    try:
        params = types.WorkDoneProgressCreateParams(token=token)
        await server.window_work_done_progress_create_async(params)
    except Exception as error:
        # The client refused the token: scan without progress rather than not at all.
        logger.info("no progress reporting: %s", error)
        return None
    begin = types.WorkDoneProgressBegin(
        title="burnlint: checking the workspace",
        message=f"{total} crates",
        cancellable=True,
        percentage=0,
    )
    _send(server, token, begin)
    return token


def _send(
    server: ScanHost,
    token: str,
    value: types.WorkDoneProgressBegin | types.WorkDoneProgressReport | types.WorkDoneProgressEnd,
) -> None:
    server.progress(types.ProgressParams(token=token, value=value))
