"""expert_sprt.py (issue 37): a variant of expert against expert on duplicate deals, deterministic for a deal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.benchmarks.test_scripts import load


def test_settings_are_python_literals() -> None:
    sprt = load("expert_sprt")
    assert sprt.parse_settings(["iterations=3000", "guide_z=2.5", "confirm=None"]) == {
        "iterations": 3000,
        "guide_z": 2.5,
        "confirm": None,
    }
    with pytest.raises(ValueError, match="KEY=VALUE"):
        sprt.parse_settings(["iterations"])
    with pytest.raises(ValueError, match="not a setting of the search"):
        sprt.parse_settings(["iteration=3"])


def test_a_deal_is_played_at_every_seat_and_repeats_exactly() -> None:
    sprt = load("expert_sprt")
    job = ("barrell-2", 3, {"iterations": 12}, {"iterations": 4}, None)
    share, mine, my_moves, theirs, their_moves = sprt.play_deal(job)
    assert 0.0 <= share <= 1.0 and share * 4 == round(share * 4)  # two games, ties as halves
    assert my_moves > 0 and their_moves > 0 and mine > 0 and theirs > 0
    assert sprt.play_deal(job)[0] == share  # budgets in iterations: the same games again


def test_a_variant_scored_by_a_value_network(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--value-net``: the variant's leaves are the network's, read from the file ``value_net.py`` wrote."""
    import numpy as np

    import oakwood

    sprt, value_net = load("expert_sprt"), load("value_net")
    game = oakwood.load("barrell")
    data = value_net.play_positions(game, 2, games=4, seed=1, sample=0.3)
    np.savez(tmp_path / "value.npz", **value_net.train(data, hidden=(8,), epochs=1, seed=0))
    evaluate = sprt.value_net_evaluator(game, 2, str(tmp_path / "value.npz"))
    assert sum(evaluate(game.new_state(2, 5))) == pytest.approx(1.0)
    scored: list[int] = []

    def counted(game: object, players: int, weights: str) -> object:
        network = evaluate_of(game, players, weights)
        return lambda state: scored.append(1) or network(state)

    evaluate_of = sprt.value_net_evaluator
    monkeypatch.setattr(sprt, "value_net_evaluator", counted)
    share = sprt.play_deal(("barrell-2", 3, {}, {"iterations": 6}, str(tmp_path / "value.npz")))[0]
    assert 0.0 <= share <= 1.0 and scored  # the variant's playouts ended in the network
