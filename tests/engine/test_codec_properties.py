"""Property tests of ``ActionCodec``: encode/decode are inverse, every canonical text parses back."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import oakwood
from oakwood.engine import ActionCodec, InvalidActionError

GAMES = [oakwood.load(name) for name in oakwood.game_names()]
word = st.text(alphabet="abcdrsxyz0159+-", min_size=1, max_size=6)
words = st.lists(word, min_size=1, max_size=3).map(" ".join)  # canonical texts: words joined by one space
action_lists = st.lists(words, min_size=1, max_size=30, unique=True)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_game_codec_is_inverse_and_parses_its_texts(game: oakwood.Game[Any]) -> None:
    codec = game.codec
    assert len(codec) == game.num_actions > 0
    for index, action in enumerate(codec.actions):
        assert codec.encode(action) == index and codec.decode(index) == action
        assert game.parse_action(str(action)) == action
        assert game.parse_action(f"  {str(action).upper()} ") == action


@given(action_lists)
def test_encode_decode_inverse(texts: list[str]) -> None:
    codec = ActionCodec(texts)
    assert [codec.decode(codec.encode(t)) for t in texts] == texts
    assert [codec.encode(codec.decode(i)) for i in range(len(codec))] == list(range(len(texts)))


@given(action_lists, st.data())
def test_parse_ignores_case_and_spacing(texts: list[str], data: st.DataObject) -> None:
    codec = ActionCodec(texts)
    text = data.draw(st.sampled_from(texts))
    spaced = "  " + "   ".join(text.split()).upper() + "\t"
    assert codec.parse(spaced) == text


@given(action_lists, st.integers())
def test_out_of_range_and_unknown_are_invalid(texts: list[str], index: int) -> None:
    codec = ActionCodec(texts)
    if not 0 <= index < len(texts):
        with pytest.raises(InvalidActionError, match="outside"):
            codec.decode(index)
    with pytest.raises(InvalidActionError, match="not an action"):
        codec.encode("§ not a listed action")
    with pytest.raises(InvalidActionError, match="no action is written"):
        codec.parse("§ not a listed action")
    with pytest.raises(InvalidActionError):
        codec.decode(True)  # a bool is not an index


@given(action_lists, st.data())
def test_mask_marks_exactly_the_legal(texts: list[str], data: st.DataObject) -> None:
    codec = ActionCodec(texts)
    legal = data.draw(st.lists(st.sampled_from(texts), unique=True))
    mask = codec.mask(legal)
    assert len(mask) == len(texts)
    assert {texts[i] for i, ok in enumerate(mask) if ok} == set(legal)


def test_duplicates_are_refused() -> None:
    with pytest.raises(ValueError, match="duplicate action"):
        ActionCodec(["draw", "draw"])
    with pytest.raises(ValueError, match="share the text"):
        ActionCodec(["Draw", "draw"])
