"""Property tests of the counter-based ``Rng``: determinism, resumption, ranges and permutations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oakwood.engine import Rng

seeds = st.integers(min_value=-(2**80), max_value=2**80)
counters = st.integers(min_value=0, max_value=5000)
counts = st.integers(min_value=0, max_value=300)


@given(seeds, counts)
def test_same_seed_same_stream(seed: int, k: int) -> None:
    assert Rng(seed).take(k) == Rng(seed).take(k)


@given(seeds, counters, counts)
def test_take_equals_repeated_next_u64(seed: int, start: int, k: int) -> None:
    a, b = Rng(seed, start), Rng(seed, start)
    assert a.take(k) == [b.next_u64() for _ in range(k)]
    assert a.counter == b.counter == start + k


@given(seeds, counters, counts)
def test_counter_resumes_the_stream_exactly(seed: int, skip: int, k: int) -> None:
    whole = Rng(seed)
    whole.take(skip)
    resumed = Rng(seed, skip)
    assert resumed.state() == whole.state() == (seed, skip)
    assert resumed.take(k) == whole.take(k)
    assert resumed == whole


@given(seeds, st.integers(min_value=1, max_value=2**70), st.integers(min_value=1, max_value=40))
def test_randbelow_stays_in_range(seed: int, n: int, draws: int) -> None:
    rng = Rng(seed)
    for _ in range(draws):
        assert 0 <= rng.randbelow(n) < n
    assert rng.counter == draws


@given(seeds, st.integers(max_value=0, min_value=-(2**20)))
def test_randbelow_refuses_non_positive_bounds(seed: int, n: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng(seed).randbelow(n)


@given(seeds, st.lists(st.integers(), max_size=200))
def test_shuffle_is_a_permutation_and_deterministic(seed: int, items: list[int]) -> None:
    a, b = items[:], items[:]
    Rng(seed).shuffle(a)
    Rng(seed).shuffle(b)
    assert a == b
    assert sorted(a) == sorted(items)


@given(seeds, counters)
def test_clone_is_independent(seed: int, start: int) -> None:
    rng = Rng(seed, start)
    twin = rng.clone()
    first = rng.take(70)
    assert twin.state() == (seed, start)
    assert twin.take(70) == first


@given(seeds, st.lists(st.integers(), min_size=1, max_size=20))
def test_random_and_choice(seed: int, items: list[int]) -> None:
    rng = Rng(seed)
    assert 0.0 <= rng.random() < 1.0
    assert rng.choice(items) in items


@settings(max_examples=30)
@given(seeds, st.integers(min_value=0, max_value=2**64 - 1))
def test_from_random_is_reproducible(seed: int, py_seed: int) -> None:
    assert Rng.from_random(Rng(seed)) == Rng.from_random(Rng(seed))
    assert Rng.from_random(random.Random(py_seed)) == Rng.from_random(random.Random(py_seed))


def test_bad_construction_is_refused() -> None:
    with pytest.raises(ValueError, match="counter is a whole number between 0 and 2"):
        Rng(1, -1)
    with pytest.raises(ValueError, match="a seed is a whole number"):
        Rng("1")  # type: ignore[arg-type]
    for seed in (True, 1.0, 2**128, -(2**127) - 1, 10**5000):
        with pytest.raises(ValueError, match="a seed is a whole number"):
            Rng(seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="counter"):
        Rng(1, 2**70)  # its block index would not fit in 64 bits
    assert Rng(2**128 - 1, 2**64 - 1).state() == (2**128 - 1, 2**64 - 1)


def test_different_seeds_differ() -> None:
    streams = {tuple(Rng(seed).take(4)) for seed in range(200)}
    assert len(streams) == 200
