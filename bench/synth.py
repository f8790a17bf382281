"""Deterministic generator of synthetic Rust workspaces for the burnlint benchmark.

A workspace of size factor `s` is a Cargo workspace of `4 * s` member crates of ~25 files each
(size 1: ~100 files, ~1 MB). Every crate depends on burn 0.22.0-pre.4 (so the `context` era is
detected from the manifest); most files are ordinary Rust (structs, impl blocks, traits,
generics, `match`, loops, closures, iterator chains, macros, test modules) of 50 to 2,000 lines,
and a minority (~12%) use burn's dispatch API in the style of `examples/dispatch-demo`: a helper
module with a context-taking `q_matmul` wrapper, and model files calling it and each other's
wrappers, most of them correct and some with planted bugs (BD001, BD004).

Crate `i` depends only on `(seed, i)`, so a bigger workspace contains the smaller ones' crates:
the same seed and size always give byte-identical files (the generator uses its own PRNG, not
`random`, so this also holds across Python versions).

    python bench/synth.py OUT_DIR [--size 4] [--seed 8]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

DEFAULT_SEED = 8
CRATES_PER_SIZE = 4
BURN_DEPENDENCY = 'burn = { version = "0.22.0-pre.4", features = ["autodiff"] }'
STAMP = "bench-synth.json"
"""Written at the workspace root: what was generated, so a later run can reuse the tree."""

_MASK = (1 << 64) - 1


class Rng:
    """splitmix64: tiny, fast enough, and defined here so that output never depends on the
    `random` module's algorithms."""

    def __init__(self, *seed: int) -> None:
        state = 0x9E3779B97F4A7C15
        for part in seed:
            state = self._mix((state ^ (part & _MASK)) + 0x632BE59BD9B4E019)
        self.state = state

    @staticmethod
    def _mix(z: int) -> int:
        z &= _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def next(self) -> int:
        """The next 64-bit value."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        return self._mix(self.state)

    def uniform(self) -> float:
        """A float in [0, 1)."""
        return (self.next() >> 11) / float(1 << 53)

    def between(self, low: int, high: int) -> int:
        """An integer in [low, high]."""
        return low + self.next() % (high - low + 1)

    def chance(self, probability: float) -> bool:
        return self.uniform() < probability

    def choice(self, items: Sequence[T]) -> T:
        return items[self.next() % len(items)]


NOUNS = (
    "token", "batch", "layer", "frame", "chunk", "record", "sample", "buffer", "index", "shard",
    "vocab", "span", "graph", "node", "edge", "cell", "grid", "pixel", "patch", "kernel",
    "stream", "queue", "cache", "window", "signal", "score", "label", "feature", "weight",
    "metric", "budget", "event", "route", "slot", "entry", "block", "page", "segment", "vector",
    "matrix", "anchor", "bucket", "cursor", "digest", "filter", "ledger", "mask", "offset",
)  # fmt: skip
ADJECTIVES = (
    "fast", "sparse", "dense", "local", "remote", "cached", "shared", "mixed", "raw", "packed",
    "quant", "lazy", "eager", "stable", "linear", "rolling", "stacked", "paged", "frozen",
    "tiled", "pooled", "scaled", "sorted", "hashed", "merged", "masked", "padded", "ranked",
)  # fmt: skip
DOMAINS = (
    "vision", "text", "audio", "graph", "tabular", "serving", "train", "eval", "data", "infer",
    "quant", "store", "metrics", "tokenize", "schedule", "sampler", "loader", "export",
)  # fmt: skip


def _camel(snake: str) -> str:
    return "".join(part.capitalize() for part in snake.split("_"))


class Names:
    """Identifiers unique within one file."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def snake(self, suffix: str = "") -> str:
        base = f"{self.rng.choice(ADJECTIVES)}_{self.rng.choice(NOUNS)}{suffix}"
        name, index = base, 2
        while name in self.used:
            name, index = f"{base}_{index}", index + 1
        self.used.add(name)
        return name

    def camel(self) -> str:
        return _camel(self.snake())


_HOLE = re.compile(r"@(\w+)@")


def fill(template: str, **values: object) -> str:
    """Replace each `@name@` in `template` (Rust never spells `@word@`)."""
    return _HOLE.sub(lambda m: str(values[m.group(1)]), template)


# Ordinary Rust ------------------------------------------------------------------------------

STRUCT = """
/// A bounded window of `f32` readings for one @noun@.
#[derive(Debug, Clone, PartialEq)]
pub struct @Type@ {
    pub id: u64,
    pub name: String,
    pub values: Vec<f32>,
    pub limit: usize,
}

impl @Type@ {
    /// Creates an empty `@Type@` named `name`.
    pub fn new(id: u64, name: impl Into<String>) -> Self {
        Self {
            id,
            name: name.into(),
            values: Vec::with_capacity(@cap@),
            limit: @limit@,
        }
    }

    /// Adds `value`, dropping the oldest one past the limit.
    pub fn push(&mut self, value: f32) {
        if self.values.len() >= self.limit {
            self.values.remove(0);
        }
        self.values.push(value);
    }

    /// The mean of the stored values, if any.
    pub fn mean(&self) -> Option<f32> {
        if self.values.is_empty() {
            return None;
        }
        Some(self.values.iter().sum::<f32>() / self.values.len() as f32)
    }

    /// How many values are above `threshold` scaled by @k@.
    pub fn @method@(&self, threshold: f32) -> usize {
        self.values
            .iter()
            .filter(|v| **v > threshold * @k@.0)
            .count()
    }
}
"""

TRAIT = """
/// Something that scores rows of @noun@ features.
pub trait @Trait@ {
    fn score(&self, input: &[f32]) -> f32;

    fn name(&self) -> &str {
        "@snake@"
    }

    fn batch_score(&self, inputs: &[Vec<f32>]) -> Vec<f32> {
        inputs.iter().map(|row| self.score(row)).collect()
    }
}

pub struct @TypeA@ {
    weight: f32,
    bias: f32,
}

impl @Trait@ for @TypeA@ {
    fn score(&self, input: &[f32]) -> f32 {
        input.iter().map(|x| x * self.weight).sum::<f32>() + self.bias
    }
}

pub struct @TypeB@<T: Copy + Into<f64>> {
    items: Vec<T>,
}

impl<T: Copy + Into<f64>> @Trait@ for @TypeB@<T> {
    fn score(&self, input: &[f32]) -> f32 {
        let base: f64 = self.items.iter().map(|&t| t.into()).sum();
        input.iter().fold(base as f32, |acc, x| acc.max(*x))
    }

    fn name(&self) -> &str {
        "@snake@_generic"
    }
}
"""

GROUP_BY = """
/// Groups `items` by `key`, keeping at most `cap` items per group.
pub fn @fn@<T, K, F>(items: &[T], cap: usize, key: F) -> HashMap<K, Vec<T>>
where
    T: Clone,
    K: std::hash::Hash + Eq,
    F: Fn(&T) -> K,
{
    let mut groups: HashMap<K, Vec<T>> = HashMap::new();
    for item in items {
        let entry = groups.entry(key(item)).or_default();
        if entry.len() < cap {
            entry.push(item.clone());
        }
    }
    groups
}
"""

TWO_SUM = """
/// The positions of two values of `data` summing to `target` (after sorting it).
pub fn @fn@(data: &mut [i64], target: i64) -> Option<(usize, usize)> {
    data.sort_unstable();
    let (mut lo, mut hi) = (0usize, data.len().saturating_sub(1));
    while lo < hi {
        let sum = data[lo] + data[hi];
        match sum.cmp(&target) {
            std::cmp::Ordering::Equal => return Some((lo, hi)),
            std::cmp::Ordering::Less => lo += 1,
            std::cmp::Ordering::Greater => hi -= 1,
        }
    }
    None
}
"""

PARSER = """
/// Why a line of @noun@ ids could not be read.
#[derive(Debug)]
pub enum @Err@ {
    Empty,
    BadNumber(String),
    TooLong { len: usize, max: usize },
}

impl fmt::Display for @Err@ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "empty line"),
            Self::BadNumber(part) => write!(f, "not a number: {part:?}"),
            Self::TooLong { len, max } => write!(f, "line of {len} bytes, at most {max}"),
        }
    }
}

impl std::error::Error for @Err@ {}

/// Reads a comma-separated list of ids.
pub fn @fn@(line: &str) -> Result<Vec<u32>, @Err@> {
    let line = line.trim();
    if line.is_empty() {
        return Err(@Err@::Empty);
    }
    if line.len() > @max@ {
        return Err(@Err@::TooLong {
            len: line.len(),
            max: @max@,
        });
    }
    line.split(',')
        .map(|part| {
            part.trim()
                .parse::<u32>()
                .map_err(|_| @Err@::BadNumber(part.to_string()))
        })
        .collect()
}
"""

MACRO = """
macro_rules! @macro@ {
    ($name:ident, $($field:ident: $ty:ty),* $(,)?) => {
        #[derive(Debug, Default, Clone)]
        pub struct $name {
            $(pub $field: $ty),*
        }
    };
}

@macro@!(@Type@, count: usize, total: f64, label: String);

impl @Type@ {
    /// Records one observation.
    pub fn observe(&mut self, value: f64) {
        self.count += 1;
        self.total += value;
        if self.label.is_empty() {
            self.label = format!("@snake@-{}", self.count);
        }
    }
}
"""

WORDS = """
/// Splits text into alphanumeric words without allocating.
pub struct @Type@<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> @Type@<'a> {
    pub fn new(text: &'a str) -> Self {
        Self { text, pos: 0 }
    }
}

impl<'a> Iterator for @Type@<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && !bytes[self.pos].is_ascii_alphanumeric() {
            self.pos += 1;
        }
        if self.pos >= bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_alphanumeric() {
            self.pos += 1;
        }
        Some(&self.text[start..self.pos])
    }
}
"""

PIPELINE = """
/// Names of the rows whose value is at least `min`, formatted, sorted and deduplicated.
pub fn @fn@(rows: &[(String, f64)], min: f64) -> Vec<String> {
    let keep = |row: &&(String, f64)| row.1 >= min * @k@.0;
    let mut names: Vec<String> = rows
        .iter()
        .filter(keep)
        .map(|(name, value)| format!("{name}={value:.2}"))
        .collect();
    names.sort();
    names.dedup();
    names
}
"""

BUILDER = """
/// Options for a @noun@ run.
#[derive(Debug, Clone)]
pub struct @Type@ {
    retries: u32,
    timeout_ms: u64,
    verbose: bool,
    tags: Vec<String>,
}

impl Default for @Type@ {
    fn default() -> Self {
        Self {
            retries: @retries@,
            timeout_ms: @timeout@,
            verbose: false,
            tags: Vec::new(),
        }
    }
}

impl @Type@ {
    pub fn retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    pub fn timeout_ms(mut self, timeout_ms: u64) -> Self {
        self.timeout_ms = timeout_ms;
        self
    }

    pub fn verbose(mut self, verbose: bool) -> Self {
        self.verbose = verbose;
        self
    }

    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tags.push(tag.into());
        self
    }

    /// The total time budget, counting every retry.
    pub fn budget_ms(&self) -> u64 {
        self.timeout_ms * u64::from(self.retries + 1)
    }
}
"""

HISTOGRAM = """
/// Counts values into `bins` equal-width bins between `lo` and `hi`.
pub fn @fn@(values: &[f64], lo: f64, hi: f64, bins: usize) -> Vec<usize> {
    let mut counts = vec![0usize; bins.max(1)];
    let width = (hi - lo) / counts.len() as f64;
    'outer: for &value in values {
        if !(lo..hi).contains(&value) {
            continue 'outer;
        }
        let mut bin = ((value - lo) / width) as usize;
        loop {
            if bin < counts.len() {
                break;
            }
            bin -= 1;
        }
        counts[bin] += 1;
    }
    counts
}
"""

STATE = """
/// The states of a @noun@ connection.
#[derive(Debug, Clone, PartialEq)]
pub enum @Type@ {
    Idle,
    Connecting { attempt: u32 },
    Open { since: u64, sent: usize },
    Closed(String),
}

impl @Type@ {
    /// The next state after `event` at time `now`.
    pub fn step(self, event: &str, now: u64) -> Self {
        match (self, event) {
            (Self::Idle, "dial") => Self::Connecting { attempt: 1 },
            (Self::Connecting { attempt }, "fail") if attempt < @max@ => Self::Connecting {
                attempt: attempt + 1,
            },
            (Self::Connecting { .. }, "fail") => Self::Closed("gave up".into()),
            (Self::Connecting { .. }, "ok") => Self::Open { since: now, sent: 0 },
            (Self::Open { since, sent }, "send") => Self::Open { since, sent: sent + 1 },
            (Self::Open { .. }, "close") => Self::Closed("closed".into()),
            (state, _) => state,
        }
    }

    pub fn is_open(&self) -> bool {
        matches!(self, Self::Open { .. })
    }
}
"""


def _enum(rng: Rng, names: Names) -> str:
    kind = names.camel()
    variants = [_camel(n) for n in sorted({rng.choice(NOUNS) for _ in range(rng.between(3, 9))})]
    lines = [
        f"/// The kinds of {rng.choice(NOUNS)}.",
        "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]",
        f"pub enum {kind} {{",
    ]
    lines += [f"    {v}," for v in variants]
    lines += ["}", "", f"impl {kind} {{", "    pub fn code(self) -> u8 {", "        match self {"]
    lines += [f"            Self::{v} => {i}," for i, v in enumerate(variants)]
    lines += ["        }", "    }", "", "    pub fn from_code(code: u8) -> Option<Self> {"]
    lines += ["        match code {"]
    lines += [f"            {i} => Some(Self::{v})," for i, v in enumerate(variants)]
    lines += ["            _ => None,", "        }", "    }", "}", ""]
    lines += [f"impl fmt::Display for {kind} {{"]
    lines += ["    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {"]
    lines += ["        let name = match self {"]
    lines += [f'            Self::{v} => "{v.lower()}",' for v in variants]
    lines += ["        };", '        write!(f, "{}", name)', "    }", "}"]
    return "\n" + "\n".join(lines) + "\n"


def _table(rng: Rng, names: Names) -> str:
    """A long `match` over codes: the kind of function that makes files long."""
    arms = rng.between(8, 60)
    lines = [
        "/// A human-readable description of a status code.",
        f"pub fn {names.snake('_text')}(code: u32) -> &'static str {{",
        "    match code {",
    ]
    for index in range(arms):
        words = " ".join(rng.choice(NOUNS) for _ in range(rng.between(2, 6)))
        lines.append(f'        {index * 7 + rng.between(0, 6)} => "{words}",')
    lines += ['        _ => "unknown",', "    }", "}"]
    return "\n" + "\n".join(lines) + "\n"


def _constants(rng: Rng, names: Names) -> str:
    count = rng.between(8, 40)
    values = ", ".join(f"{rng.between(0, 9999) / 1000:.3f}" for _ in range(count))
    name = names.snake().upper()
    return (
        f"\n/// Reference {rng.choice(NOUNS)} values.\n"
        f"pub const {name}: [f32; {count}] = [{values}];\n\n"
        f'pub static {name}_LABEL: &str = "{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}";\n'
    )


def _simple(template: str) -> Callable[[Rng, Names], str]:
    def make(rng: Rng, names: Names) -> str:
        snake = names.snake()
        return fill(
            template,
            Type=names.camel(),
            TypeA=names.camel(),
            TypeB=names.camel(),
            Trait=names.camel(),
            Err=names.camel() + "Error",
            fn=snake,
            snake=snake,
            method=names.snake("_above"),
            macro=names.snake("_record"),
            noun=rng.choice(NOUNS),
            cap=rng.between(4, 256),
            limit=rng.between(16, 4096),
            k=rng.between(1, 9),
            max=rng.between(3, 512),
            retries=rng.between(0, 5),
            timeout=rng.between(100, 30000),
        )

    return make


ORDINARY: tuple[Callable[[Rng, Names], str], ...] = (
    _simple(STRUCT),
    _simple(TRAIT),
    _simple(GROUP_BY),
    _simple(TWO_SUM),
    _simple(PARSER),
    _simple(MACRO),
    _simple(WORDS),
    _simple(PIPELINE),
    _simple(BUILDER),
    _simple(HISTOGRAM),
    _simple(STATE),
    _enum,
    _table,
    _constants,
)


def _tests(rng: Rng, names: Names) -> str:
    lines = ["", "#[cfg(test)]", "mod tests {", "    use super::*;"]
    for _ in range(rng.between(1, 4)):
        values = ", ".join(str(rng.between(-50, 50)) for _ in range(rng.between(3, 8)))
        lines += [
            "",
            "    #[test]",
            f"    fn {names.snake('_works')}() {{",
            f"        let mut values: Vec<i64> = vec![{values}];",
            "        values.sort();",
            "        let total: i64 = values.iter().sum();",
            "        assert!(values.windows(2).all(|w| w[0] <= w[1]));",
            "        assert_eq!(total, values.iter().copied().sum::<i64>());",
            "        let _ = HashMap::<String, usize>::new();",
            "    }",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


ORDINARY_HEADER = """//! @Domain@ @noun@ utilities.

use std::collections::HashMap;
use std::fmt;
"""

# The dispatch API ---------------------------------------------------------------------------

HELPER = """//! Thin helpers over the dispatch backend: a context-taking `q_matmul`, predicates and devices.

use burn::backend::{
    ops::QTensorOps, Dispatch, DispatchAutodiffContext, DispatchDevice, DispatchTensor,
    DispatchTensorKind, GradientCheckpointingStrategy, TensorPrimitive,
};
use std::collections::HashMap;
use std::fmt;

/// Multiplies the float `lhs` by the quantized `rhs`, routing `lhs` with the autodiff context `ctx`.
pub fn q_matmul(
    lhs: DispatchTensor,
    rhs: DispatchTensor,
    ctx: DispatchAutodiffContext,
) -> DispatchTensor {
    match Dispatch::q_matmul(
        TensorPrimitive::Float(DispatchTensor {
            kind: lhs.kind,
            autodiff: ctx,
        }),
        TensorPrimitive::QFloat(rhs),
    ) {
        TensorPrimitive::Float(out) => out,
        TensorPrimitive::QFloat(_) => unreachable!("a float lhs gives a float product"),
    }
}

/// Whether `t` is an autodiff float.
pub fn is_autodiff(t: &DispatchTensor) -> bool {
    matches!(t.kind, DispatchTensorKind::Autodiff(_))
}

/// The context that matches `t`, derived from its kind.
pub fn context_for(
    t: &DispatchTensor,
    strategy: GradientCheckpointingStrategy,
) -> DispatchAutodiffContext {
    if is_autodiff(t) {
        DispatchAutodiffContext::Enabled(strategy)
    } else {
        DispatchAutodiffContext::Disabled
    }
}

/// The plain Flex device used for inference.
pub fn flex_device() -> DispatchDevice {
    DispatchDevice::Flex(Default::default())
}

/// The autodiff training device.
pub fn ad_device() -> DispatchDevice {
    DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()))
}
"""

DISPATCH_HEADER = """//! @Domain@ heads on burn's dispatch backend.

use burn::backend::{
    ops::FloatTensorOps, AutodiffBackend, Dispatch, DispatchAutodiffContext, DispatchDevice,
    DispatchTensor, GradientCheckpointingStrategy,
};
use burn::tensor::TensorData;
use std::collections::HashMap;
use std::fmt;

use crate::@helper@;
"""

# Each dispatch item: (template, planted code or "" when correct). `@h@` is the helper module.
TRACKED_BUG = """
/// Scores a training batch against quantized weights.
pub fn @fn@(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let @var@ = Dispatch::float_from_data(batch, &device);
    let out = @h@::q_matmul(@var@, q_rhs, DispatchAutodiffContext::Disabled);
    Dispatch::float_mul_scalar(out, 0.125f32.into())
}
"""
TRACKED_OK = """
/// Scores a training batch; the context is enabled with the device's strategy.
pub fn @fn@(
    batch: TensorData,
    q_rhs: DispatchTensor,
    strategy: GradientCheckpointingStrategy,
) -> DispatchTensor {
    let device = DispatchDevice::autodiff_with_gradient_checkpointing(
        DispatchDevice::Flex(Default::default()),
        strategy,
    );
    let @var@ = Dispatch::float_from_data(batch, &device);
    let out = @h@::q_matmul(@var@, q_rhs, DispatchAutodiffContext::Enabled(strategy));
    Dispatch::float_mul_scalar(out, 0.125f32.into())
}
"""
FROZEN_OK = """
/// Scores without tracking: the input is stripped with `inner` first.
pub fn @fn@(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let device = @h@::ad_device();
    let lhs = Dispatch::float_from_data(batch, &device);
    let lhs = <Dispatch as AutodiffBackend>::inner(lhs);
    @h@::q_matmul(lhs, q_rhs, DispatchAutodiffContext::Disabled)
}
"""
PLAIN_OK = """
/// Scores a batch that lives on the plain inference device.
pub fn @fn@(batch: TensorData, q_rhs: DispatchTensor) -> DispatchTensor {
    let lhs = Dispatch::float_from_data(batch, &@h@::flex_device());
    @h@::q_matmul(lhs, q_rhs, DispatchAutodiffContext::Disabled)
}
"""
FROM_TENSOR_OK = """
/// Scores any input; the context is read from the input itself.
pub fn @fn@(lhs: DispatchTensor, q_rhs: DispatchTensor) -> DispatchTensor {
    let ctx = lhs.autodiff;
    @h@::q_matmul(lhs, q_rhs, ctx)
}
"""
GUARDED_OK = """
/// The context follows the kind on both branches.
pub fn @fn@(train: bool, data: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let device = if train { @h@::ad_device() } else { @h@::flex_device() };
    let x = Dispatch::float_from_data(data, &device);
    if @h@::is_autodiff(&x) {
        @h@::q_matmul(x, q_w, DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled))
    } else {
        @h@::q_matmul(x, q_w, DispatchAutodiffContext::Disabled)
    }
}
"""
MATCH_WARN = """
/// Scores an input built for `train` with a fixed Disabled context.
pub fn @fn@(train: bool, data: TensorData, q_w: DispatchTensor) -> DispatchTensor {
    let x = match train {
        true => Dispatch::float_from_data(data, &@h@::ad_device()),
        false => Dispatch::float_from_data(data, &@h@::flex_device()),
    };
    @h@::q_matmul(x, q_w, DispatchAutodiffContext::Disabled)
}
"""
CLOSURE_BUG = """
/// Scores every row into `out`.
pub fn @fn@(rows: Vec<TensorData>, q: DispatchTensor, out: &mut Vec<DispatchTensor>) {
    let ad = @h@::ad_device();
    rows.into_iter()
        .map(|r| Dispatch::float_from_data(r, &ad))
        .for_each(|x| out.push(@h@::q_matmul(x, q.clone(), DispatchAutodiffContext::Disabled)));
}
"""
CLOSURE_OK = """
/// Scores every row with a tracked context.
pub fn @fn@(rows: Vec<TensorData>, q: DispatchTensor) -> Vec<DispatchTensor> {
    let ad = @h@::ad_device();
    let ctx = DispatchAutodiffContext::Enabled(GradientCheckpointingStrategy::Disabled);
    rows.into_iter()
        .map(|r| Dispatch::float_from_data(r, &ad))
        .map(|x| @h@::q_matmul(x, q.clone(), ctx))
        .collect()
}
"""
STACK_BUG = """
/// Quantized layers applied in turn to a tracked hidden state.
pub struct @Type@ {
    layers: Vec<DispatchTensor>,
    ctx: DispatchAutodiffContext,
}

impl @Type@ {
    pub fn new(layers: Vec<DispatchTensor>) -> Self {
        Self {
            layers,
            ctx: DispatchAutodiffContext::Disabled,
        }
    }

    pub fn forward(&self, init: TensorData) -> DispatchTensor {
        let mut h = Dispatch::float_from_data(init, &@h@::ad_device());
        for q_w in &self.layers {
            h = @h@::q_matmul(h, q_w.clone(), self.ctx);
            h = Dispatch::float_exp(h);
        }
        h
    }
}
"""
STACK_OK = """
/// Quantized layers applied in turn to a tracked hidden state.
pub struct @Type@ {
    layers: Vec<DispatchTensor>,
    ctx: DispatchAutodiffContext,
}

impl @Type@ {
    pub fn new(layers: Vec<DispatchTensor>, strategy: GradientCheckpointingStrategy) -> Self {
        Self {
            layers,
            ctx: DispatchAutodiffContext::Enabled(strategy),
        }
    }

    pub fn forward(&self, init: TensorData) -> DispatchTensor {
        let mut h = Dispatch::float_from_data(init, &@h@::ad_device());
        for q_w in &self.layers {
            h = @h@::q_matmul(h, q_w.clone(), self.ctx);
            h = Dispatch::float_exp(h);
        }
        h
    }
}
"""
NESTED_BUG = """
/// Activations for a run that switches balanced checkpointing on.
pub fn @fn@(data: TensorData) -> DispatchTensor {
    let device = DispatchDevice::autodiff(DispatchDevice::Flex(Default::default()));
    let balanced = DispatchDevice::autodiff_with_gradient_checkpointing(
        device,
        GradientCheckpointingStrategy::Balanced,
    );
    Dispatch::float_from_data(data, &balanced)
}
"""
NESTED_OK = """
/// Activations for a run that switches balanced checkpointing on (re-wrapping the inner device).
pub fn @fn@(data: TensorData) -> DispatchTensor {
    let device = @h@::ad_device();
    let balanced = DispatchDevice::autodiff_with_gradient_checkpointing(
        device.inner(),
        GradientCheckpointingStrategy::Balanced,
    );
    Dispatch::float_from_data(data, &balanced)
}
"""
# Wrappers other modules call (defined once per dispatch file, named after the module).
WRAPPERS = """
/// Projects `x` through `w` with the context `x` carries.
pub fn @m@_project(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    let ctx = x.autodiff;
    @h@::q_matmul(x, w.clone(), ctx)
}

/// Projects a constant `x` through `w`.
pub fn @m@_frozen(x: DispatchTensor, w: &DispatchTensor) -> DispatchTensor {
    @h@::q_matmul(x, w.clone(), DispatchAutodiffContext::Disabled)
}
"""
CALL_FROZEN_BUG = """
/// A training step through the constant projection of another module.
pub fn @fn@(data: TensorData, w: &DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &@h@::ad_device());
    let y = @path@::@m@_frozen(x, w);
    Dispatch::float_exp(y)
}
"""
CALL_FROZEN_OK = """
/// An evaluation step through the constant projection of another module.
pub fn @fn@(data: TensorData, w: &DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &@h@::flex_device());
    let y = @path@::@m@_frozen(x, w);
    Dispatch::float_exp(y)
}
"""
CALL_PROJECT_OK = """
/// A training step through the tracked projection of another module.
pub fn @fn@(data: TensorData, w: &DispatchTensor) -> DispatchTensor {
    let x = Dispatch::float_from_data(data, &@h@::ad_device());
    let y = @path@::@m@_project(x, w);
    Dispatch::float_exp(y)
}
"""

LOCAL_BUGS: tuple[tuple[str, str], ...] = (
    (TRACKED_BUG, "BD001"),
    (CLOSURE_BUG, "BD001"),
    (STACK_BUG, "BD001"),
    (NESTED_BUG, "BD004"),
    (MATCH_WARN, "BD001-warning"),
)
LOCAL_OK: tuple[str, ...] = (
    TRACKED_OK,
    FROZEN_OK,
    PLAIN_OK,
    FROM_TENSOR_OK,
    GUARDED_OK,
    CLOSURE_OK,
    STACK_OK,
    NESTED_OK,
)
BUG_RATE = 0.2


# Layout -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Module:
    """One planned source file of a crate."""

    path: tuple[str, ...]
    """Module path below the crate root, e.g. ("model", "heads")."""
    kind: str
    """"lib", "mod" (a folder's mod.rs), "helper", "dispatch", "plain" or "test"."""
    lines: int = 0


@dataclass(slots=True)
class Summary:
    """What a generated workspace holds."""

    size: int
    seed: int
    crates: int = 0
    files: int = 0
    bytes: int = 0
    lines: int = 0
    dispatch_files: int = 0
    planted: Counter[str] = field(default_factory=Counter[str])
    """Planted bugs by code; `BD001-warning` is a path-dependent BD001 (a warning)."""

    def as_dict(self) -> dict[str, object]:
        return {
            "size": self.size,
            "seed": self.seed,
            "crates": self.crates,
            "files": self.files,
            "bytes": self.bytes,
            "lines": self.lines,
            "dispatch_files": self.dispatch_files,
            "planted": dict(sorted(self.planted.items())),
        }


def _file_lines(rng: Rng) -> int:
    # Skewed towards short files (median ~140 lines, mean ~300), a few up to 2,000 lines.
    return max(50, min(2000, int(50 * 40 ** (rng.uniform() ** 1.9))))


def _plan(rng: Rng) -> tuple[list[Module], str]:
    """The files of one crate and the name of its helper module."""
    count = rng.between(18, 32)
    names = Names(rng)
    helper = rng.choice(("dispatch", "backend", "kernels"))
    names.used.add(helper)
    modules = [Module((), "lib")]
    groups = [names.snake() for _ in range(rng.between(1, 3))]
    modules += [Module((g,), "mod") for g in groups]
    # A quarter of the crates never touch the dispatch API; the others have 2-6 files using it.
    dispatch = 0 if rng.chance(0.25) else rng.between(2, 6)
    models = dispatch - 1
    if dispatch:
        modules.append(Module((helper,), "helper", _file_lines(rng) // 2))
    if rng.chance(0.5):
        modules.append(Module(("tests", names.snake()), "test", _file_lines(rng)))
    while len(modules) < count:
        folder = () if rng.chance(0.4) else (rng.choice(groups),)
        kind = "dispatch" if models > 0 else "plain"
        models -= 1
        modules.append(Module((*folder, names.snake()), kind, _file_lines(rng)))
    return modules, helper


def _rel(module: Module) -> str:
    if module.kind == "lib":
        return "src/lib.rs"
    if module.kind == "mod":
        return f"src/{module.path[0]}/mod.rs"
    if module.kind == "test":
        return f"tests/{module.path[1]}.rs"
    return "src/" + "/".join(module.path) + ".rs"


def _padding(rng: Rng, names: Names, parts: list[str], target: int) -> None:
    """Ordinary items until the file has about `target` lines."""
    count = sum(p.count("\n") for p in parts)
    while count < target:
        part = rng.choice(ORDINARY)(rng, names)
        parts.append(part)
        count += part.count("\n")


def _dispatch_file(
    rng: Rng,
    module: Module,
    helper: str,
    earlier: list[Module],
    summary: Summary,
) -> str:
    names = Names(rng)
    domain = rng.choice(DOMAINS)
    parts = [fill(DISPATCH_HEADER, Domain=domain.capitalize(), helper=helper)]
    mod_name = module.path[-1]
    parts.append(fill(WRAPPERS, m=mod_name, h=helper))
    items = rng.between(3, 7)
    for index in range(items):
        if index % 2 == 1:
            # Ordinary code between the dispatch functions, as in a real model file.
            parts.append(rng.choice(ORDINARY)(rng, names))
        values = {"fn": names.snake(), "Type": names.camel(), "var": names.snake(), "h": helper}
        if earlier and rng.chance(0.35):
            # Helpers in other modules calling each other.
            other = rng.choice(earlier)
            values |= {"path": "crate::" + "::".join(other.path), "m": other.path[-1]}
            if rng.chance(BUG_RATE):
                parts.append(fill(CALL_FROZEN_BUG, **values))
                summary.planted["BD001"] += 1
            else:
                parts.append(fill(rng.choice((CALL_FROZEN_OK, CALL_PROJECT_OK)), **values))
        elif rng.chance(BUG_RATE):
            template, code = rng.choice(LOCAL_BUGS)
            parts.append(fill(template, **values))
            summary.planted[code] += 1
        else:
            parts.append(fill(rng.choice(LOCAL_OK), **values))
    _padding(rng, names, parts, module.lines)
    if rng.chance(0.5):
        parts.append(_tests(rng, names))
    return "".join(parts)


def _plain_file(rng: Rng, module: Module) -> str:
    names = Names(rng)
    domain = rng.choice(DOMAINS)
    parts = [fill(ORDINARY_HEADER, Domain=domain.capitalize(), noun=rng.choice(NOUNS))]
    if module.kind == "test":
        parts = [
            f"//! Integration tests: {domain}.\n\nuse std::collections::HashMap;\nuse std::fmt;\n"
        ]
    _padding(rng, names, parts, module.lines)
    if module.kind == "test" or rng.chance(0.4):
        parts.append(_tests(rng, names))
    return "".join(parts)


def _helper_file(rng: Rng, module: Module) -> str:
    names = Names(rng)
    parts = [HELPER]
    _padding(rng, names, parts, module.lines)
    return "".join(parts)


def _mod_file(modules: list[Module], prefix: tuple[str, ...], doc: str) -> str:
    children = sorted(
        m.path[-1]
        for m in modules
        if m.kind not in ("lib", "test") and m.path[:-1] == prefix and m.path != prefix
    )
    lines = [f"//! {doc}", ""] + [f"pub mod {child};" for child in children]
    return "\n".join(lines) + "\n"


def generate_crate(seed: int, index: int, root: Path, summary: Summary) -> str:
    """Write crate `index` under `root/crates/`; returns its folder name."""
    rng = Rng(seed, index)
    name = f"{rng.choice(DOMAINS)}-{rng.choice(NOUNS)}-{index}"
    folder = root / "crates" / name
    modules, helper = _plan(rng)
    files: dict[str, str] = {
        "Cargo.toml": (
            f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\npublish = false\n\n'
            f"[dependencies]\n{BURN_DEPENDENCY}\n"
        )
    }
    done: list[Module] = []
    for module in modules:
        if module.kind == "lib":
            text = _mod_file(modules, (), f"The {name} crate.")
        elif module.kind == "mod":
            text = _mod_file(modules, module.path, f"{module.path[0]} modules.")
        elif module.kind == "helper":
            text = _helper_file(rng, module)
        elif module.kind == "dispatch":
            text = _dispatch_file(rng, module, helper, done, summary)
            done.append(module)
            summary.dispatch_files += 1
        else:
            text = _plain_file(rng, module)
        files[_rel(module)] = text
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        if rel.endswith(".rs"):
            summary.files += 1
            summary.bytes += len(data)
            summary.lines += text.count("\n")
    summary.crates += 1
    return name


def generator_digest() -> str:
    """A hash of this generator's source: a tree made by another version is regenerated."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def generate(root: Path, size: int, seed: int = DEFAULT_SEED) -> Summary:
    """Write a fresh workspace of size factor `size` into `root` (emptied first)."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    summary = Summary(size, seed)
    members = [
        f"crates/{generate_crate(seed, index, root, summary)}"
        for index in range(CRATES_PER_SIZE * size)
    ]
    listed = "".join(f'    "{m}",\n' for m in members)
    (root / "Cargo.toml").write_text(
        f'[workspace]\nresolver = "2"\nmembers = [\n{listed}]\n\n'
        f"[workspace.dependencies]\n{BURN_DEPENDENCY}\n",
        encoding="utf-8",
    )
    stamp = {**summary.as_dict(), "generator": generator_digest()}
    (root / STAMP).write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
    return summary


def ensure(root: Path, size: int, seed: int = DEFAULT_SEED) -> dict[str, object]:
    """The workspace at `root`, generated unless an identical one (same generator, size and
    seed) is already there; returns its summary."""
    try:
        stamp = json.loads((root / STAMP).read_text(encoding="utf-8"))
        if (stamp["generator"], stamp["size"], stamp["seed"]) == (generator_digest(), size, seed):
            return dict(stamp)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    generate(root, size, seed)
    return dict(json.loads((root / STAMP).read_text(encoding="utf-8")))


def main() -> int:
    parser = argparse.ArgumentParser(description="Generate a synthetic Rust workspace.")
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", type=int, default=1)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    summary = generate(args.out, args.size, args.seed)
    print(json.dumps(summary.as_dict(), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
