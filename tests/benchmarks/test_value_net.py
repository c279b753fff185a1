"""``benchmarks/value_net.py`` end to end on a few games: positions with their returns and the hand-written
estimate, a network trained on them, its weights loaded in numpy, and a search scored by it (nothing timed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oakwood
from oakwood.agents.ismcts import ISMCTSAgent
from oakwood.arena.match import play_match

from .test_scripts import load


def test_positions_a_network_and_a_search_scored_by_it(tmp_path: Path) -> None:
    value_net = load("value_net")
    game = oakwood.load("squarrels", single_round=True)
    data = value_net.play_positions(game, 2, games=6, seed=1, sample=0.2)
    rows = len(data["y"])
    assert rows > 0 and rows % 2 == 0  # every sampled position gives a row per seat
    assert data["x"].shape == (rows, 2 * value_net.observation_encoder(game, 2).size)
    assert set(np.unique(data["y"])) <= {0.0, 0.5, 1.0} and np.all((data["progress"] >= 0) & (data["progress"] < 1))
    # the two rows of a position are the two seats' views of it: their estimates share the position's whole
    assert np.allclose(data["estimate"][0::2] + data["estimate"][1::2], 1.0, atol=1e-5)

    np.savez(tmp_path / "a.npz", **data)
    np.savez(tmp_path / "b.npz", **value_net.play_positions(game, 2, games=3, seed=2, sample=0.2))
    joined = value_net.load_positions([str(tmp_path / "a.npz"), str(tmp_path / "b.npz")])  # chunks of a run
    assert len(joined["y"]) > rows and np.array_equal(joined["x"][:rows], data["x"])

    weights = value_net.train(data, hidden=(8,), epochs=1, seed=0)
    np.savez(tmp_path / "value.npz", **weights)
    net = value_net.ValueNet.read(str(tmp_path / "value.npz"))
    p = net(data["x"])
    assert p.shape == (rows,) and np.all((p > 0) & (p < 1))

    evaluate = value_net.NetEvaluator(game, 2, net)
    state = game.new_state(2, 3)
    shares = evaluate(state)
    assert len(shares) == 2 and sum(shares) == pytest.approx(1.0)
    scored = ISMCTSAgent(seed=0, iterations=10, playout_steps=4, evaluate=evaluate)
    agents = [scored, ISMCTSAgent(seed=1, iterations=10, playout_steps=4)]
    assert play_match(game, agents, seed=2).state.is_terminal()  # legal moves to the end: the runner checks each


def test_training_without_positions_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    value_net = load("value_net")
    monkeypatch.setattr("sys.argv", ["value_net.py", "train", "--out", "value.npz"])
    with pytest.raises(SystemExit):
        value_net.main()
    assert "train needs --data" in capsys.readouterr().err
