"""Int and bool tensors are never autodiff primitives (only floats are), but one made on an
autodiff device is an autodiff float again once cast with `float()`. The clean cases (an int
tensor paired with `Disabled` to reach its raw handle) are the fixtures in
`tests/corpus/BD001/b13_as_constant_int_clean.rs`; these tests hold the cast back."""

from __future__ import annotations

from burnlint.analysis.engine import Analyzer, CrateFile, CrateSession, Options
from burnlint.analysis.syntax.source import SourceFile
from burnlint.kb.load import load_kb

ANALYZER = Analyzer(load_kb())

HEADER = (
    "use burn::tensor::{Device, Distribution, Int, Tensor};\n"
    "pub fn relift(shape: [usize; 2]) -> Tensor<2> {\n"
    "    let device = Device::default().autodiff();\n"
    "    let x_ad = Tensor::<2>::random(shape, Distribution::Default, &device).require_grad();\n"
    "    let plain = Tensor::<2>::ones(shape, &Device::default());\n"
)


def codes(text: str) -> list[str]:
    """The codes of the findings on `text` (a single file, checkpointing era)."""
    session = CrateSession(
        ANALYZER, [CrateFile(SourceFile("relift.rs", text))], Options(era="checkpointing")
    )
    return [finding.code for finding in session.results()[0].findings]


def test_an_int_tensor_cast_back_to_float_is_autodiff_again() -> None:
    # Without a declared type the int tensor keeps its autodiff device, and `float()` lifts it.
    text = HEADER + "    let m = x_ad.clone().argmax(1);\n    m.float() * plain\n}\n"
    assert codes(text) == ["BD007"]


def test_a_declared_int_tensor_cast_back_to_float_is_autodiff_again() -> None:
    # The declared type says int; the device it was made on still says autodiff.
    text = (
        HEADER + "    let m: Tensor<2, Int> = x_ad.clone().argmax(1);\n    m.float() * plain\n}\n"
    )
    assert codes(text) == ["BD007"]
