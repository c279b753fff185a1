"""The Nutty Squirrels game object: options, the action codec, new games, notation, rendering hooks."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

from oakwood.engine import Game, Rng, State

from .actions import ALL_ACTIONS, END_GAME
from .evaluate import estimate
from .options import NuttyOptions
from .solo import SoloState
from .state import NuttyState
from .tree import TreeState


class Nutty(Game[NuttyOptions]):
    """Nutty Squirrels of the Oakwood Forest: multiplayer (2–6) and solo (``players=1``, NS-17)."""

    name: ClassVar[str] = "nutty"
    title: ClassVar[str] = "Nutty Squirrels of the Oakwood Forest"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    options_class: ClassVar[type[NuttyOptions]] = NuttyOptions
    agents: ClassVar[Mapping[str, str]] = {
        "heuristic": "oakwood.games.nutty.heuristic:NuttyHeuristic",
        "strategist": "oakwood.games.nutty.strategist:NuttyStrategist",
    }
    #: Events that reveal nothing hidden and no random result: the turn passing, moves onto cards already
    #: face up (a solo move onto a face-down card logs a ``flip``), claiming a power (a refilled card arrives
    #: face down), acorns gathered, dropped, packed, stashed, converted, buried, lassoed, spat or stolen, the
    #: powers' other effects and the falls they cause, a Wind Gust's push, a limb break (the cards it cuts
    #: leave unseen), a solo purchase from the open market or bribe of a face-up Owl. Not ``flip`` or
    #: ``arborist``: they reveal face-down cards.
    # Search guided by the strategist (far stronger than the heuristic: strategist.py), with playouts long
    # enough to bank what a turn gathers: ten-step playouts scored by estimate_returns, which values no
    # progress toward acorns, made the search end turns early and lose to the heuristic it was guided by
    # (0 of 20 four-player games, benchmarks/README.md). About a second a move at four players.
    level_iterations: ClassVar[tuple[int, int] | None] = (50, 150)  # hard, expert: benchmarks/strength.py
    playout_steps: ClassVar[int] = 100
    search_guide: ClassVar[str] = "strategist"
    # Solo and at two players the search's departures from the strategist were as often worse as better, and the
    # two-player expert was weaker than the strategist alone (0.61 against 0.70 over medium): there, fresh worlds
    # must confirm each one (two players: 0.78 over medium on the same deals since; benchmarks/README.md).
    confirm_departures: ClassVar[Mapping[int, int]] = {1: 40, 2: 40}
    quiet_events: ClassVar[frozenset[str]] = frozenset(
        {
            "turn", "end_turn", "move", "claim", "gather", "drop", "pack", "unpack", "stash", "unstash",
            "convert", "bury", "lasso", "spit", "steal", "loot", "sticky_full", "owl", "copy", "fall", "blown",
            "break", "pickpocket", "buy", "fools_gold",
        }
    )  # fmt: skip

    def _all_actions(self) -> Sequence[Hashable]:
        return ALL_ACTIONS

    def _new_state(self, players: int, seed: int) -> State:
        # The state classes are imported once, with this module: an import statement per game is a measurable
        # share of a four-step solo playout.
        if players == 1:
            return SoloState(self, 1, seed)
        return NuttyState(self, players, seed)

    def _from_notation(self, text: str) -> State:
        from .notation import read

        return read(self, text)

    def normalise_move(self, text: str) -> str:
        """A move typed as the screen shows it, in canonical text (see ``actions.normalise_move``)."""
        from .actions import normalise_move

        return normalise_move(text)

    def render(self, observation: Mapping[str, Any]) -> str:
        """The tree (six limbs as rows), the supply and every board, as plain text."""
        from .render import render

        return render(observation)

    def render_compact(self, observation: Mapping[str, Any]) -> str:
        """The same picture in fewer lines, for a small terminal (the CLI's optional hook)."""
        from .render import render

        return render(observation, compact=True)

    def describe_move(self, observation: Mapping[str, Any], action: Hashable) -> str:
        """``describe_action`` with the action's cost in this position (AP, or points in solo): the CLI's
        optional hook for menus."""
        from .render import describe_move

        return describe_move(observation, action)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        """One English line per event."""
        from .render import describe_event

        return describe_event(event)

    def estimate_returns(self, state: State) -> list[float]:
        """Who is ahead, for search: win shares from buried, banked and carried acorns and powers, sharper
        as the tree runs out (multiplayer); the chance to reach 20 points (solo). See ``evaluate.py``."""
        assert isinstance(state, TreeState)
        return estimate(state)

    def playout_action(self, state: State, seat: int, legal: Sequence[Hashable], rng: Rng) -> Hashable:
        """A random move, but never ``end game`` while another move remains: a solo playout that may stop at
        any moment would mostly stop at once, scoring every line of play the same loss."""
        if len(legal) > 1 and END_GAME in legal:
            legal = [action for action in legal if action is not END_GAME]
        return legal[rng.randbelow(len(legal))]

    def information_key(self, observation: Mapping[str, Any]) -> str:
        """The observation's text without the solo game's count of decisions: it moves on every action, and
        only decides the game at its safety limit (NS-17g, 3,000 decisions by default), so with it a bot
        stepping sideways to and fro with Flying Squirrel never met the same position twice and went on to
        the limit (found by ``strength.py``: two solo games of 60 ran past 1,000 decisions)."""
        if "actions_taken" not in observation:
            return repr(observation)
        return repr({key: value for key, value in observation.items() if key != "actions_taken"})

    def move_warnings(self, world: State, seat: int) -> dict[Hashable, str]:
        """Solo only (NS-17l): the sentence to read before a move that ends the game short of 20 points or
        puts 20 out of reach, by action; never for a move that reveals a card (see ``warn.py``)."""
        from .warn import move_warnings

        return move_warnings(world, seat)

    def describe_action(self, action: Hashable) -> str:
        """A short explanation of an action for menus."""
        from .render import describe_action

        return describe_action(action)
