"""Lowering, construct by construct: each small function's IR (`syntax.dump`) is kept as a
snapshot, so a change to lowering shows exactly which constructs it touched."""

from __future__ import annotations

import pytest
from stages import compare, lowered

from burnlint.analysis.syntax.dump import dump

CONSTRUCTS = {
    "let_patterns": "fn f(x: T) { let (a, mut b) = (x, 1); let S { c, d: e, .. } = a; let [g, _] = e; }",
    "shadowing": "fn f(x: T) -> T { let x = x.clone(); let x = x.inner(); x }",
    "if_else_chain": "fn f(n: u8, x: T) -> T { if n > 2 { x } else if n == 1 { x.inner() } else { return x; } }",
    "if_let_and_let_else": "fn f(o: Option<T>) -> T { if let Some(t) = o.clone() { return t; } let Some(u) = o else { panic!() }; u }",
    "match_guards": "fn f(k: Kind) -> u8 { match k { Kind::A(t) if t.is_autodiff() => 1, Kind::B | Kind::C => 2, _ => 3 } }",
    "for_range_and_iter": "fn f(xs: Vec<T>, n: usize) { for i in 0..n { g(i); } for x in xs.iter() { h(x); } }",
    "while_and_loop_break_value": "fn f(mut n: u8) -> u8 { while n > 0 { n -= 1; } let v = 'outer: loop { if n == 0 { break 'outer 5; } continue; }; v }",
    "closures": "fn f(a: T) -> T { let add = |t: T| t + a.clone(); let twice = move |t| add(add(t)); twice(a) }",
    "method_chains": "fn f(d: Device) -> T { Tensor::<2>::ones([2, 2], &d.autodiff()).matmul(x).detach().inner() }",
    "struct_literal_and_fields": "fn f(x: T, ctx: C) -> S { let mut s = S { x, ctx: ctx.clone(), ..Default::default() }; s.ctx = C::Disabled; s.x.y = 1; s }",
    "try_and_references": "fn f(r: Result<T, E>, t: &mut T) -> Result<T, E> { let v = r?; *t = v.clone(); let w = &v; Ok(w.clone()) }",
    "macros": 'fn f(x: T) { let v = vec![x.clone(), x]; assert!(v.len() == 2, "two"); println!("{}", v.len()); }',
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_lowering_snapshot(name: str, request: pytest.FixtureRequest) -> None:
    compare("lowering", name, dump(lowered(CONSTRUCTS[name])), request)
