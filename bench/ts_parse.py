"""Reference line for bench/run.py: parse every `.rs` file under a folder with py-tree-sitter,
single-threaded, and print one JSON object (files, bytes, read and parse seconds).

    python bench/ts_parse.py PATH
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import tree_sitter
import tree_sitter_rust
from files import rust_files


def main() -> int:
    started = time.perf_counter()
    paths = rust_files(Path(sys.argv[1]))
    data = [path.read_bytes() for path in paths]
    read = time.perf_counter() - started
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_rust.language()))
    started = time.perf_counter()
    errors = 0
    for blob in data:
        errors += parser.parse(blob).root_node.has_error
    parse = time.perf_counter() - started
    summary = {
        "files": len(data),
        "bytes": sum(map(len, data)),
        "read_s": round(read, 4),
        "parse_s": round(parse, 4),
        "files_with_syntax_errors": errors,
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
