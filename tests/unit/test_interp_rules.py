"""The abstract interpretation's rules one at a time (joins at branches, loops to a fixpoint,
guards that split path classes, must versus may), each on a small function whose conclusion
(the facets of what it returns) is kept as a snapshot."""

from __future__ import annotations

import pytest
from stages import compare, summary_text

D = "Device::default()"
AD = "Device::default().autodiff()"
RULES = {
    # A branch on an integer joins the arms: the result may be autodiff or plain.
    "join_if_arms": f"fn f(n: u8) -> Tensor<2> {{ let t = Tensor::<2>::ones([1], &{AD}); if n > 1 {{ t }} else {{ t.inner() }} }}",
    # Both arms agree: the join is as certain as each arm.
    "join_agreeing_arms": f"fn f(n: u8) -> Tensor<2> {{ let t = Tensor::<2>::ones([1], &{AD}); if n > 1 {{ t.clone() }} else {{ t }} }}",
    # A loop whose body strips autodiff on some rounds: the fixpoint holds both.
    "loop_fixpoint": f"fn f(n: usize) -> Tensor<2> {{ let mut t = Tensor::<2>::ones([1], &{AD}); for i in 0..n {{ if i % 2 == 0 {{ t = t.inner(); }} }} t }}",
    # A loop that never changes the tracked fact stays certain.
    "loop_keeps_fact": f"fn f(n: usize) -> Tensor<2> {{ let mut t = Tensor::<2>::ones([1], &{D}); for _ in 0..n {{ t = t.clone() + t; }} t }}",
    # `is_autodiff()` splits path classes: each arm knows which it is.
    "guard_splits": "fn f(t: Tensor<2>) -> Tensor<2> { if t.is_autodiff() { t.inner() } else { t } }",
    # Unknown input stays symbolic (a parameter), never a guess.
    "parameter_stays_symbolic": "fn f(t: Tensor<2>) -> Tensor<2> { t.clone() }",
    # A diverging arm contributes nothing to the join.
    "diverging_arm": f'fn f(n: u8) -> Tensor<2> {{ let t = Tensor::<2>::ones([1], &{AD}); if n > 1 {{ panic!("no") }} else {{ t }} }}',
    # A case per variant of a parameter that returns alike facts is one case: callers need not
    # follow a path class per variant (each learns nothing the others do not).
    "alike_cases_merge": "enum Dyn { R1(Tensor<1>), R2(Tensor<2>), R3(Tensor<3>) } fn f(d: Dyn) -> Tensor<2> { match d { Dyn::R1(t) => t.unsqueeze(), Dyn::R2(t) => t, Dyn::R3(t) => t.squeeze() } }",
    # Cases that return different facts keep their assumptions: a caller that knows the
    # variant knows the result.
    "unlike_cases_stay": f"enum Mode {{ Train, Eval }} fn f(m: Mode) -> Tensor<2> {{ let t = Tensor::<2>::ones([1], &{AD}); match m {{ Mode::Train => t, Mode::Eval => t.inner() }} }}",
    # An int parameter is read as an int (no autodiff primitive) and its `float()` as a float
    # again: each caller's argument goes through both steps.
    "int_param_cast_to_float": "fn f(ids: Tensor<2, Int>) -> Tensor<2> { ids.float() }",
    # An int made from an autodiff tensor keeps its device; `float()` makes it autodiff again.
    "int_of_autodiff_cast_to_float": f"fn f() -> Tensor<2> {{ let x = Tensor::<2>::ones([1], &{AD}); let m: Tensor<2, Int> = x.argmax(1); m.float() }}",
    # Correlated branches: the second `if` knows what the first decided.
    "correlated_branches": f"fn f(n: usize, cut: usize) -> Tensor<2> {{ let mut t = Tensor::<2>::ones([1], &{AD}); if n == cut {{ t = t.inner(); }} if n == cut {{ Tensor::from_inner(t) }} else {{ t }} }}",
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_interpretation_rule_snapshot(name: str, request: pytest.FixtureRequest) -> None:
    compare("interp", name, summary_text(RULES[name]), request)
