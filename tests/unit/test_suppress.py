"""Suppression comments are found wherever the comment grammar allows them, and nothing else
that mentions burnlint is taken for one."""

from __future__ import annotations

from burnlint.analysis.rules.suppress import Suppressions
from burnlint.analysis.syntax.source import SourceFile


def test_comments_with_any_whitespace_and_only_those() -> None:
    text = (
        "fn f() {}\n"
        "//\u00a0burnlint:\u2003allow(BD001)\n"  # Unicode spaces between the words
        "let a = 1; // burnlint: allow(bd004, BD001)\n"
        "// burnlint: expect BD001\n"  # a fixture's expectation, not a suppression
        "// burnlint: allowed(BD001) is not the grammar\n"
        "//burnlint:allow-file(BD006)\n"
    )
    allows = Suppressions.parse(SourceFile("x.rs", text)).allows
    assert [(sorted(a.codes), a.line) for a in allows] == [
        (["BD001"], 2),
        (["BD001", "BD004"], 2),
        (["BD006"], None),
    ]
