"""Start the language server (`burnlint server`): logging, handlers, transport."""

from __future__ import annotations

import gc
import logging
import sys

from burnlint.kb.model import Entry
from burnlint.lsp.handlers import register
from burnlint.lsp.server import BurnlintServer

SWITCH_SECONDS = 0.0005
"""How long a thread holds the interpreter lock while another waits for it (`serve`)."""


def configure_logging() -> None:
    """Log to stderr (stdout carries the protocol); pygls' per-message INFO lines are muted."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("pygls").setLevel(logging.WARNING)
    # Cancelling a request that already finished is routine for editors, not a warning.
    logging.getLogger("pygls.protocol.json_rpc").setLevel(logging.ERROR)
    logging.getLogger("burnlint").setLevel(logging.WARNING)


def serve(entries: tuple[Entry, ...], tcp_port: int | None = None) -> int:
    """Run the server over stdio (or TCP on 127.0.0.1) until the client exits; returns the
    process exit code."""
    configure_logging()
    server = BurnlintServer(entries)
    register(server)
    # The knowledge base, grammar and protocol types never die: keep them out of every
    # collection, and collect young objects less often. A full pass over a large heap takes
    # tens of milliseconds (60 ms after a 5,000-line file): while the user types it almost
    # never runs (an edit's analysis makes no cyclic garbage); the pipeline runs one when the
    # server is idle (`Pipeline.collect_when_idle`). No collection before the freeze: here it
    # finds about 25 unreachable objects among 60,000 and costs 25-40 ms of start-up.
    gc.freeze()
    gc.set_threshold(20_000, 20, 1_000)
    # Analyses run on a thread of their own; a request the event loop could answer at once (a
    # code action on the findings it has) waits for the analysis thread to hand over the
    # interpreter lock, by default every 5 ms, several times per request. At 0.5 ms a code
    # action sent right after an edit was answered in 14-16 ms instead of 29-31 (p50; p95
    # 35-41 instead of 48-56 ms, `bench/lsp_latency.py`, 3 runs each), the analysis itself as
    # fast as before (server CPU per edit 16-17 ms either way).
    sys.setswitchinterval(SWITCH_SECONDS)
    if tcp_port is None:
        server.start_io()
    else:
        server.start_tcp("127.0.0.1", tcp_port)
    return server.exit_code
