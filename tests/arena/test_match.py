"""The match runner: commits see nothing of each other, races go to the fastest slap."""

from __future__ import annotations

from collections.abc import Hashable

from oakwood.agents import Choice, PlayerView
from oakwood.arena.match import play_match
from oakwood.engine import Decision, load
from tests.cli.toygame import TOY_NAME


class Scripted:
    """Stays, plays its lowest card, slaps after a fixed delay; records what it saw at each commit."""

    name = "scripted"

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.commit_views: list[dict[str, object]] = []

    def act(self, view: PlayerView) -> Hashable | Choice:
        if view.decision is Decision.COMMIT:
            self.commit_views.append(view.observation)
            return view.legal_actions[0]
        if view.decision is Decision.RACE:
            return Choice(view.game.parse_action("slap"), self.delay)
        return view.game.parse_action("stay")


def test_fastest_slapper_wins_every_race_and_commits_are_blind() -> None:
    game = load(TOY_NAME, rounds=3)
    slow, fast, mid = Scripted(0.9), Scripted(0.1), Scripted(0.5)
    result = play_match(game, [slow, fast, mid], seed=3)
    slaps = [e["player"] for e in result.state.events_seen_by(None) if e["kind"] == "slap"]
    assert slaps == [1, 1, 1]
    for agent in (slow, fast, mid):
        for seen in agent.commit_views:
            assert seen["committed"] == [False, False, False], "every commit view is taken before any answer"
    assert result.steps == len(result.state.history)
    assert result.winners == result.state.winners()
