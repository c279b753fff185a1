"""The training example runs end to end on a few games: it learns through the Gymnasium environment, evaluates,
and writes its plot and results."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_barrell.py"


def test_the_training_example_learns_plots_and_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("train_barrell", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "curve.png"
    monkeypatch.setattr(sys, "argv", ["train", "--games", "30", "--eval-games", "10", "--out", str(out)])
    module.main()
    results = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert results["training_games"] == 30
    for opponent in ("against_random", "against_heuristic"):
        figure = results[opponent]
        assert figure["games"] == 10 and figure["low"] <= figure["win_share"] <= figure["high"]
    assert out.stat().st_size > 0
    policy, returns = module.train(20, 0.01, seed=3)
    again, returns_again = module.train(20, 0.01, seed=3)
    assert returns == returns_again and (policy.weights == again.weights).all()  # seeded: the same run
    assert policy.weights.any()  # it learnt something from 20 games
