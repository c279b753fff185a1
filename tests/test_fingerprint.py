"""scripts/fingerprint.py, the behaviour fingerprint that must be equal on the pure and the compiled form (issue
36): it is deterministic, it sees a change of behaviour, and it covers every option value of every game."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import oakwood

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fingerprint.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("oakwood_fingerprint_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_same_games_give_the_same_hash_and_other_options_another() -> None:
    script = _script()
    first = script.fingerprint_set("squarrels", {"single_round": True}, 3, 4)
    assert first == script.fingerprint_set("squarrels", {"single_round": True}, 3, 4)
    assert first[1] > 0
    other = script.fingerprint_set("squarrels", {"single_round": True, "hoard_race": "random"}, 3, 4)
    assert other[0] != first[0]


def test_every_choice_and_switch_of_every_game_is_an_option_set() -> None:
    script = _script()
    for name in ("squarrels", "barrell", "nutty"):
        labels = {label for label, _, _ in script.option_sets(name)}
        for info in oakwood.load(name).options.describe():
            if isinstance(info.default, bool):
                assert f"{info.name}={not info.default}" in labels
            elif info.choices is not None:
                for value in info.choices:
                    if value != info.default:
                        assert f"{info.name}={value}" in labels or _refused(name, info.name, value)


def _refused(game: str, name: str, value: object) -> bool:
    try:
        oakwood.load(game, **{name: value})
    except ValueError:
        return True
    return False


def test_compare_names_the_differing_fingerprints() -> None:
    script = _script()
    a = {"form": "pure", "hashes": {"x": "1", "y": "2"}}
    b = {"form": "compiled", "hashes": {"x": "1", "y": "3", "z": "4"}}
    assert script.compare(a, b) == ["y", "z"]
