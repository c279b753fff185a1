"""The S'Quarrels Game object: options, codec, dealing, notation and text rendering."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar

from oakwood.engine import Game, State

from . import evaluation, render
from .actions import ALL_ACTIONS, Action
from .cards import check_table, deck_of
from .notation import read
from .options import SQuarrelsOptions
from .state import LegalMemo, SQuarrelsState, new_legal_memos


class SQuarrels(Game[SQuarrelsOptions]):
    """S'Quarrels: store sets of acorns before Winter, over rounds to a target score (2–6 players)."""

    name: ClassVar[str] = "squarrels"
    title: ClassVar[str] = "S'Quarrels"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options_class: ClassVar[type[SQuarrelsOptions]] = SQuarrelsOptions
    agents: ClassVar[Mapping[str, str]] = {
        "heuristic": "oakwood.games.squarrels.heuristic:SQuarrelsHeuristic",
        "strategist": "oakwood.games.squarrels.strategist:SQuarrelsStrategist",
    }
    #: Events that reveal nothing hidden and no random result: storing a set (face up, from one's own hand), a
    #: discard (seen by its owner only), ending a turn empty-handed, the next turn starting, and one's own
    #: face-down Quarrel card or secret Hoard answer (the reveal that follows the last one is its own event).
    #: Not ``draw`` or ``draw_action``: the top card of the shuffled Deck is new knowledge.
    level_iterations: ClassVar[tuple[int, int] | None] = (300, 1000)  # hard, expert: benchmarks/strength.py
    playout_steps: ClassVar[int] = 8  # short playouts scored by estimate_returns measured best (issue 9)
    search_guide: ClassVar[str] = "strategist"  # measured stronger than the heuristic (strategist.py)
    quiet_events: ClassVar[frozenset[str]] = frozenset(
        {"turn", "store", "discard", "end_turn", "quarrel_commit", "race_commit"}
    )

    def __init__(self, options: SQuarrelsOptions | None = None, **values: Any) -> None:
        super().__init__(options, **values)
        #: Legal-action tuples by phase, then by hand, shared by this game's states (state.py); the second
        #: set serves turns where a Whirlwind obliges the player to draw up to seven.
        self.legal_memo: dict[str, LegalMemo] = new_legal_memos()
        self.forced_legal_memo: dict[str, LegalMemo] = new_legal_memos()
        #: The deck every round starts from, in card order, and the same without the Golden once it is lost
        #: for the match (SQ-7, SQ-17): the option's composition (SQ-26), built once.
        self.full_deck: tuple[int, ...] = tuple(deck_of(self.options.cards))
        self.deck_without_golden: tuple[int, ...] = tuple(deck_of(self.options.cards, include_golden=False))

    def _all_actions(self) -> Sequence[Hashable]:
        return ALL_ACTIONS

    def _new_state(self, players: int, seed: int) -> State:
        check_table(self.options.cards, players)  # a custom deck may be too small for this table (SQ-26)
        return SQuarrelsState(self, players, seed)

    def _from_notation(self, text: str) -> State:
        return read(self, text)

    def estimate_returns(self, state: State) -> list[float]:
        """Win shares from projected scores: stored sets, the Golden and Rotten in hand, the hand's potential
        sets, the totals and the target (``evaluation.py``); exactly ``returns()`` at the end."""
        assert isinstance(state, SQuarrelsState)
        return evaluation.estimate_returns(state)

    def normalise_move(self, text: str) -> str:
        """A move typed as the screen shows it, in canonical text (see ``actions.normalise_move``)."""
        from .actions import normalise_move

        return normalise_move(text)

    def render(self, observation: Mapping[str, Any]) -> str:
        """The table as seen in ``observation``, in plain text."""
        return render.render(observation)

    def render_compact(self, observation: Mapping[str, Any]) -> str:
        """The same picture in fewer lines, for a small terminal (the CLI's optional hook)."""
        return render.render(observation, compact=True)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        """One English line for an event view."""
        return render.describe_event(event)

    def describe_action(self, action: Hashable) -> str:
        """A short explanation of an action for menus."""
        return render.describe_action(action) if isinstance(action, Action) else str(action)
