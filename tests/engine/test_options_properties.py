"""Property tests of ``Options`` validation, using S'Quarrels' options (every kind of field: int, bool, str, float)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oakwood.engine import InvalidOptionError, OptionInfo
from oakwood.games.squarrels.cards import SYMBOLS
from oakwood.games.squarrels.options import SQuarrelsOptions

INFOS = {info.name: info for info in SQuarrelsOptions.describe()}


@st.composite
def deck_compositions(draw: st.DrawFn) -> str:
    """A named deck or a custom one within SQ-26's limits (one Winter, at most one Golden and one Rotten)."""
    if draw(st.booleans()):
        return "standard"
    counts = {symbol: draw(st.integers(min_value=3, max_value=30)) for symbol in "12345"}
    counts.update({symbol: draw(st.integers(min_value=0, max_value=8)) for symbol in "QHAV"})
    counts.update({symbol: draw(st.integers(min_value=0, max_value=1)) for symbol in "RG"})
    counts["W"] = 1
    assert set(counts) == set(SYMBOLS)  # every card of the deck is drawn
    return json.dumps(counts)


def valid_value(info: OptionInfo) -> st.SearchStrategy[Any]:
    """Any allowed value of one option."""
    if info.name == "deck_composition":
        return deck_compositions()
    if info.choices is not None:
        return st.sampled_from(info.choices)
    kind = type(info.default)
    if kind is bool:
        return st.booleans()
    if kind is int:
        return st.integers(min_value=int(info.minimum or -(10**6)), max_value=int(info.maximum or 10**6))
    if kind is float:
        return st.floats(min_value=info.minimum, max_value=info.maximum, allow_nan=False)
    raise AssertionError(f"no strategy for {info.name}")


@st.composite
def valid_options(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(sorted(INFOS)), unique=True))
    values = {name: draw(valid_value(INFOS[name])) for name in names}
    if values.get("single_round"):
        values.pop("target_score", None)  # the one cross-field rule (see SQuarrelsOptions._validate)
    return values


@given(valid_options())
def test_valid_values_are_accepted_and_round_trip(values: dict[str, Any]) -> None:
    options = SQuarrelsOptions.create(**values)
    assert SQuarrelsOptions(**options.to_dict()) == options
    assert set(options.changed()) <= set(values)
    texts = {name: str(value) for name, value in values.items()}
    assert SQuarrelsOptions.from_strings(texts) == options  # command-line text converts to the same options


@given(st.text(min_size=1, max_size=30).filter(lambda s: s not in INFOS))
def test_unknown_names_are_refused(name: str) -> None:
    with pytest.raises(InvalidOptionError, match="unknown option"):
        SQuarrelsOptions.create(**{name: 1})
    with pytest.raises(InvalidOptionError, match="unknown option"):
        SQuarrelsOptions.from_strings({name: "1"})


@pytest.mark.parametrize(
    ("typo", "suggestion"),
    [("target_scor", "target_score"), ("hoard_rase", "hoard_race"), ("quarel_exhaustion", "quarrel_exhaustion")],
)
def test_typos_get_suggestions(typo: str, suggestion: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"did you mean {suggestion}"):
        SQuarrelsOptions.create(**{typo: 1})


def wrong_type(info: OptionInfo) -> st.SearchStrategy[Any]:
    kind = type(info.default)
    others: list[st.SearchStrategy[Any]] = [st.none(), st.lists(st.integers(), max_size=2)]
    if kind is not str:
        others.append(st.text(max_size=5))
    if kind not in (int, float):
        others.append(st.integers())
    if kind is not bool and kind is not str:
        others.append(st.booleans())  # True is an int in Python, but not a valid int option
    return st.one_of(others)


@given(st.data())
def test_wrong_types_are_refused_naming_the_option(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(INFOS)))
    value = data.draw(wrong_type(INFOS[name]))
    with pytest.raises(InvalidOptionError, match=f"option {name!r} must be"):
        SQuarrelsOptions.create(**{name: value})


@given(st.integers(max_value=0) | st.integers(min_value=1001))
def test_out_of_range_ints_are_refused(value: int) -> None:
    with pytest.raises(InvalidOptionError, match="'target_score' must be at"):
        SQuarrelsOptions.create(target_score=value)


@given(
    st.floats(max_value=0.49, allow_nan=False, allow_infinity=False)
    | st.floats(min_value=60.01, allow_nan=False, allow_infinity=False)
)
def test_out_of_range_floats_are_refused(value: float) -> None:
    with pytest.raises(InvalidOptionError, match="'hoard_race_window_s' must be at"):
        SQuarrelsOptions.create(hoard_race_window_s=value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_nan_and_infinities_are_refused(value: float) -> None:
    with pytest.raises(InvalidOptionError, match="'hoard_race_window_s' must be a finite number"):
        SQuarrelsOptions.create(hoard_race_window_s=value)
    with pytest.raises(InvalidOptionError, match="finite"):
        SQuarrelsOptions.from_strings({"hoard_race_window_s": str(value)})


def test_saved_options_need_text_names() -> None:
    with pytest.raises(InvalidOptionError, match="option names are text, not 1"):
        SQuarrelsOptions.from_dict({1: 2})
    with pytest.raises(InvalidOptionError, match="mapping"):
        SQuarrelsOptions.from_dict([("target_score", 30)])
    assert SQuarrelsOptions.from_dict({"target_score": 30}).target_score == 30


def test_errors_quote_at_most_about_eighty_characters_of_a_bad_value() -> None:
    with pytest.raises(InvalidOptionError) as caught:
        SQuarrelsOptions.create(hoard_race="x" * 10_000_000)
    assert len(str(caught.value)) < 300 and "10,000,000 characters" in str(caught.value)


RACE_MODES = ("realtime", "random", "seat_order")


@given(st.text(max_size=20).filter(lambda s: s not in RACE_MODES))
def test_values_outside_choices_are_refused(value: str) -> None:
    assert INFOS["hoard_race"].choices == RACE_MODES
    with pytest.raises(
        InvalidOptionError, match=re.escape("'hoard_race' must be one of realtime | random | seat_order")
    ):
        SQuarrelsOptions.create(hoard_race=value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("yes", True), ("TRUE", True), ("1", True), ("on", True), ("no", False), ("False", False), ("0", False)],
)
def test_from_strings_converts_booleans(text: str, expected: bool) -> None:
    assert SQuarrelsOptions.from_strings({"golden_wild_in_sets": text}).golden_wild_in_sets is expected


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("golden_wild_in_sets", "maybe"),
        ("target_score", "fifty"),
        ("target_score", "2.5"),
        ("hoard_race_window_s", "x"),
    ],
)
def test_from_strings_refuses_bad_text(name: str, text: str) -> None:
    with pytest.raises(InvalidOptionError, match=f"option {name!r} must be"):
        SQuarrelsOptions.from_strings({name: text})


def test_from_strings_converts_numbers_and_cross_field_rule() -> None:
    options = SQuarrelsOptions.from_strings({"target_score": "75", "hoard_race_window_s": "2.5"})
    assert options.target_score == 75 and options.hoard_race_window_s == 2.5
    assert SQuarrelsOptions.from_strings({"hoard_race_window_s": "3"}).hoard_race_window_s == 3.0
    with pytest.raises(InvalidOptionError, match="single_round"):
        SQuarrelsOptions.create(single_round=True, target_score=30)
