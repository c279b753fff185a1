"""``oakwood.analysis.tune``: the same seeds give the same study trial by trial; a study resumed half way equals
one run at once (TPE and NSGA-II); a trial's figures equal a direct count from the stored games; the leaders,
the recommendation and every one-step change are measured; bad targets and searched options are refused in one
line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oakwood.analysis import tune
from oakwood.analysis.features import extractor_for
from oakwood.analysis.measure import measure
from oakwood.arena.local import LocalBackend
from oakwood.engine import load
from oakwood.store import Store, TournamentSettings, open_store

GAME = "barrell"
EXTRACTOR = extractor_for(GAME)


def settings(*targets: str, games: int = 8, population: int = 3, seed: int = 3, **extra: Any) -> tune.Settings:
    """A cheap study: Barrell at three seats, three options searched, a handful of games a trial."""
    loaded = load(GAME)
    space = tune.search_space(loaded, ["battle_tie", "heart_gift_timing", "max_consecutive_drawn_battles=2-4"], {})
    return tune.Settings(
        game=GAME,
        base=loaded.options.to_dict(),
        space=tuple(space),
        targets=tuple(tune.parse_target(t, EXTRACTOR, (3,)) for t in targets),
        players=(3,),
        games=games,
        skill_games=6,
        seed=seed,
        leaders=2,
        leader_games=14,
        population=population,
        **extra,
    )


def run(path: Path, study: str, s: tune.Settings, count: int) -> list[tuple[int, dict[str, Any], tuple[float, ...]]]:
    """Open the store at ``path``, run the study to ``count`` trials, close it; every trial's params and values."""
    store = open_store(f"sqlite:///{path}")
    try:
        opened = tune.open_study(store, study, s)
        tune.run_trials(opened, s, tune.Evaluator(store, LocalBackend(1), s, workers=1), count)
        return [(t.number, dict(t.params), tuple(t.values)) for t in tune.completed(opened)]
    finally:
        store.close()


@pytest.mark.parametrize("targets", [("seats=3",), ("seats=3", "length=50-70")], ids=["tpe", "nsga2"])
def test_resumed_study_equals_uninterrupted_and_seeds_repeat(tmp_path: Path, targets: tuple[str, ...]) -> None:
    s = settings(*targets)
    count = 6  # beyond the first generation of NSGA-II (population 3)
    whole = run(tmp_path / "a.db", "s", s, count)
    halves = run(tmp_path / "b.db", "s", s, count // 2)
    assert len(halves) == count // 2
    resumed = run(tmp_path / "b.db", "s", s, count)  # a second process: a new sampler, the stored trials
    again = run(tmp_path / "c.db", "s", s, count)  # a fresh database, the same seed
    assert len(whole) == count
    assert resumed == whole
    assert again == whole
    assert whole[0][1] == {
        "battle_tie": "no_winner",
        "heart_gift_timing": "simultaneous",
        "max_consecutive_drawn_battles": 3,
    }  # trial 0: the rules as they are
    assert len({json.dumps(p, sort_keys=True) for _, p, _ in whole}) > 1  # the sampler did explore
    # a run stopped inside a trial leaves it running with the values it drew: the next run measures it first
    store = open_store(f"sqlite:///{tmp_path / 'e.db'}")
    try:
        cut = tune.open_study(store, "s", s)
        tune.run_trials(cut, s, tune.Evaluator(store, LocalBackend(1), s, workers=1), 1)
        cut.sampler = tune._sampler(s, 1)
        cut.ask({d.name: d.distribution() for d in s.space})  # trial 1 drawn, never measured
    finally:
        store.close()
    assert run(tmp_path / "e.db", "s", s, count) == whole


def test_figures_equal_a_direct_count_and_conclusion(tmp_path: Path) -> None:
    s = settings("seats=3", "skill=40")
    store = open_store(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        evaluator = tune.Evaluator(store, LocalBackend(1), s, workers=1)
        options = load(GAME, battle_tie="all_tied_win").options.to_dict()
        evaluation = evaluator.evaluate(options, s.seed, s.games)
        # the same games, read back and counted by hand: a win share by place in the turn order
        table = TournamentSettings(GAME, options, 3, ("heuristic",), s.seed, s.games)
        own, _ = store.tournament_for(table)
        games = measure(store, GAME, options, 3, store.played_games([own.id], s.games), workers=1)
        assert len(games) == s.games
        wins = [0.0, 0.0, 0.0]
        for g in games:
            for seat in range(3):
                wins[g.features.order[seat]] += g.returns[seat]
        size = evaluation.sizes[0]
        assert size.by_order
        assert [p.value for p in size.places] == pytest.approx([w / s.games for w in wins])
        assert evaluation.values[0] == pytest.approx(max(abs(w / s.games - 1 / 3) for w in wins) * 100)
        assert size.length.value == pytest.approx(sum(g.steps for g in games) / s.games)
        mixed = TournamentSettings(GAME, options, 3, ("heuristic", "random", "random"), s.seed, s.skill_games)
        mine, _ = store.tournament_for(mixed)
        strong = sum(g.returns[g.index % 3] for g in store.played_games([mine.id], s.skill_games))
        assert size.skill is not None and size.skill.value == pytest.approx(strong / s.skill_games)
        assert evaluation.values[1] == pytest.approx(max(0.0, 40 - strong / s.skill_games * 100))
        # measured twice, the same figures, and no game played again
        before = len(store.played_games([own.id], s.games))
        assert evaluator.evaluate(options, s.seed, s.games) == evaluation
        assert len(store.played_games([own.id], s.games)) == before

        study = tune.open_study(store, "c", s)
        tune.run_trials(study, s, evaluator, 5)
        outcome = tune.conclude(study, s, evaluator)
        assert outcome.recommended is not None and outcome.base is not None
        assert len(outcome.leaders) == 2
        assert {x["trial"] for x in outcome.leaders} <= {t.number for t in tune.completed(study)}
        assert outcome.recommended["games"] == s.leader_games
        assert outcome.recommended["seed"] == outcome.base["seed"] != str(s.seed)  # fresh deals, shared
        # every one-step change: one per other choice, and one up or down for the drawn-battle limit
        params = tune._params_of(s, json.loads(json.dumps(_options(s, outcome.recommended))))
        expected = sum(len(d.notches(params[d.name])) for d in s.space)
        assert len(outcome.neighbours) == expected
        assert all(len(n["values"]) == 2 for n in outcome.neighbours)
        # the check's centre: the recommendation on the neighbours' own games (the first --games fresh deals)
        assert outcome.centre is not None and outcome.centre["games"] == s.games
        assert outcome.centre["seed"] == outcome.recommended["seed"] == outcome.neighbours[0]["seed"]
        assert outcome.front and set(outcome.front) <= {t["number"] for t in outcome.trials}
        assert [x["target"] for x in outcome.importances] == ["seats=3", "skill=40"]
    finally:
        store.close()


def _options(s: tune.Settings, setting: dict[str, Any]) -> dict[str, Any]:
    """A setting's full options from its listed changes."""
    options = dict(s.base)
    for key, value in setting["changed"].items():
        info = {i.name: i for i in load(GAME).options.describe()}[key]
        options[key] = (
            (value == "true")
            if isinstance(info.default, bool)
            else (int(value) if isinstance(info.default, int) else value)
        )
    return options


def test_a_study_with_other_settings_is_refused(tmp_path: Path) -> None:
    run(tmp_path / "x.db", "s", settings("seats=3"), 1)
    store: Store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    try:
        with pytest.raises(tune.TuneError, match="other settings"):
            tune.open_study(store, "s", settings("seats=2"))
    finally:
        store.close()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("fairness=3", "unknown target 'fairness'"),
        ("seats=x", "is not a number"),
        ("seats=-1", "non-negative"),
        ("length=80-40", "from the smaller to the larger"),
        ("length=40", "give a range"),
        ("length", "give a range"),
        ("skill=120", "at most 100"),
        ("number:nothing=1-2", "measures no number 'nothing'"),
        ("number=1-2", "name the number"),
        ("length:rounds=1-2", "only number targets name a key"),
    ],
)
def test_bad_targets_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(tune.TuneError, match=message) as caught:
        tune.parse_target(text, EXTRACTOR, (3,))
    assert "\n" not in str(caught.value)


def test_targets_read_as_written() -> None:
    assert tune.parse_target("seats", EXTRACTOR, (3, 4)).tolerance == 3
    assert tune.parse_target("first=2", EXTRACTOR, (3,)).tolerance == 2
    length = tune.parse_target("length=40-80", EXTRACTOR, (3,))
    assert (length.low, length.high) == (40, 80)
    assert length.met(0.0) and not length.met(0.5)
    assert tune.parse_target("number:battles=3-9", EXTRACTOR, (3,)).key == "battles"
    with pytest.raises(tune.TuneError, match="two or more players"):
        tune.parse_target("seats=3", extractor_for("nutty"), (1,))


@pytest.mark.parametrize(
    ("searched", "fixed", "message"),
    [
        (["no_such_option"], {}, "has no option 'no_such_option'"),
        (["battle_tie"], {"battle_tie": "all_tied_win"}, "also fixed by --option"),
        (["battle_tie", "battle_tie"], {}, "searched twice"),
        (["battle_tie=no_winner|sometimes"], {}, "'sometimes' is not one of"),
        (["battle_tie=no_winner"], {}, "two values or more"),
        (["kod_ignores_hearts=true|maybe"], {}, "not true or false"),
        (["max_consecutive_drawn_battles=0-5"], {}, "takes 1–100"),
        (["max_consecutive_drawn_battles=3-3"], {}, "one value searches nothing"),
        (["max_consecutive_drawn_battles=2.5-4"], {}, "whole-number range"),
        (["battle_tie:JC=0-1"], {}, "only a deck option names card kinds"),
        (["deck_composition:XX=0-1"], {}, "no card kind 'XX'"),
        (["deck_composition:JC"], {}, "give the counts searched"),
        (["deck_composition=±0"], {}, "±K around its base counts"),
    ],
)
def test_bad_searched_options_are_refused_in_one_line(searched: list[str], fixed: dict[str, Any], message: str) -> None:
    with pytest.raises(tune.TuneError, match=message) as caught:
        tune.search_space(load(GAME, **fixed), searched, fixed)
    assert "\n" not in str(caught.value)


def test_the_space_and_a_deck_searched_card_by_card() -> None:
    loaded = load(GAME)
    every = tune.search_space(loaded, [], {})
    names = [d.name for d in every]
    assert "battle_tie" in names and "deck_composition" not in names  # one named deck: not searched by default
    fixed = tune.search_space(load(GAME, battle_tie="all_tied_win"), [], {"battle_tie": "all_tied_win"})
    assert "battle_tie" not in [d.name for d in fixed]
    space = tune.search_space(loaded, ["all", "deck_composition:RJ,BJ=0-1"], {})
    assert len(space) == len(every) + 2
    base = loaded.options.to_dict()
    editors = tune.editors_of(GAME)
    params = tune.base_params(space, base, editors)
    assert params["deck_composition:RJ"] == 1 and params["deck_composition:BJ"] == 1
    without = tune.options_for(space, {**params, "deck_composition:BJ": 0}, base, editors)
    counts = tune.deck_counts(load(GAME, **without).options.deck_composition, editors["deck_composition"])
    assert counts["BJ"] == 0 and counts["RJ"] == 1 and sum(counts.values()) == 53
    s = tune.Settings(GAME, base, tuple(space), (tune.parse_target("seats", EXTRACTOR, (3,)),), (3,))
    assert tune.changed_options(s, load(GAME, **without).options.to_dict()) == {"deck_composition:BJ": "1→0"}


def test_the_study_lives_beside_oakwoods_tables(store_url: str) -> None:
    """Optuna's tables in the store's own database, SQLite or PostgreSQL: Oakwood's schema revision is left as it
    was (Optuna shares the name of its version table), the store still opens, and the study is found again."""
    from oakwood.store import database

    s = settings("seats=3", games=4)
    store = open_store(store_url)
    try:
        revision = database.current_revision(store.engine)
        study = tune.open_study(store, "beside", s)
        tune.run_trials(study, s, tune.Evaluator(store, LocalBackend(1), s, workers=1), 2)
        assert database.current_revision(store.engine) == revision
    finally:
        store.close()
    again = open_store(store_url)  # Oakwood's own check of its schema passes with Optuna's tables there
    try:
        found = tune.open_study(again, "beside", s)
        assert [t.number for t in tune.completed(found)] == [0, 1]
    finally:
        again.close()


def test_the_worst_table_size_counts() -> None:
    """Over several table sizes a target's objective is its worst table's: seats by the largest gap, first by the
    first place, length by the distance outside the range, skill by the shortfall."""
    from oakwood.analysis.statistics import mean, share

    def size(players: int, wins: list[float], lengths: list[float], strong: float) -> tune.SizeFigures:
        games = 100
        return tune.SizeFigures(
            players, tuple(share(w, games) for w in wins), True, mean(lengths), {}, share(strong, games)
        )

    three = size(3, [40, 33, 27], [50.0, 70.0], 70)  # gaps 6.7, 0.3, 6.3 points; length 60; strong 70 %
    four = size(4, [25, 30, 25, 20], [90.0, 110.0], 45)  # gaps 0, 5, 0, 5; length 100; strong 45 %

    def value(text: str) -> float:
        return tune.objective(tune.parse_target(text, EXTRACTOR, (3, 4)), [three, four])

    assert value("seats=3") == pytest.approx(100 * (40 / 100 - 1 / 3))
    assert value("first=2") == pytest.approx(100 * (40 / 100 - 1 / 3))
    assert value("length=55-80") == pytest.approx(20.0)  # four players: 100 actions, 20 above the range
    assert value("length=40-120") == 0.0
    assert value("skill=50") == pytest.approx(5.0)  # four players: 45 %, 5 points short
