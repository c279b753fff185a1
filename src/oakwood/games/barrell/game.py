"""The Barrell game: ruleset, action codec, end-of-battle stage order and rendering hooks."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar

from oakwood.engine import Game, State

from . import evaluation
from .actions import ALL_ACTIONS, Action, mulligan_actions, play_actions
from .cards import BIT, KING_OF_HEARTS, NUMBERED_HEARTS_MASK, cards_of, check_table
from .options import BarrellOptions
from .state import BarrellState


class Barrell(Game[BarrellOptions]):
    """Barrell: best of three battles of face-down cards, hearts, Queens, Kings, Jacks and Jokers."""

    name: ClassVar[str] = "barrell"
    title: ClassVar[str] = "Barrell"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_class: ClassVar[type[BarrellOptions]] = BarrellOptions
    agents: ClassVar[Mapping[str, str]] = {
        "heuristic": "oakwood.games.barrell.heuristic:BarrellHeuristic",
        "strategist": "oakwood.games.barrell.strategist:BarrellStrategist",
    }
    #: hard, expert (benchmarks/strength.py). The expert's 900 beat 300 in an SPRT on duplicate two-player deals (H0
    #: 0.50 / H1 0.58, H1 accepted after 44 deals, share 0.625: benchmarks/README.md, "Expert changes"): its guide is
    #: medium itself, so what it gains is its search, and more search gains more. About 0.3-0.5 s a move compiled
    #: (the form `make run` serves), 0.6-0.8 s pure; the web server caps a search at RoomSettings.bot_seconds.
    #: The guide stays the heuristic (``Game.search_guide``): guided by the stronger strategist the expert did no
    #: better against time-matched PIMC (benchmarks/README.md, "tune_strategist.py").
    level_iterations: ClassVar[tuple[int, int] | None] = (100, 900)
    #: Events that reveal nothing hidden and no random result: a card played (face down, or a Jack face up
    #: from one's own hand), a pass (an empty hand's automatic pass included), a Jack cancelled by the Jack of
    #: Diamonds, a card set aside in the sequential mulligan, and the end-of-battle choices about face-up cards
    #: (Joker, King of Hearts return, King of Spades take). Not ``swap``/``rotate`` (the initiator may look at
    #: face-down cards), ``gift`` (the last gift reveals everyone's secret choices), nor any draw or reveal.
    quiet_events: ClassVar[frozenset[str]] = frozenset(
        {"play", "pass", "cancelled", "mulligan_aside", "joker", "return", "take"}
    )

    def __init__(self, options: BarrellOptions | None = None, **values: Any) -> None:
        super().__init__(options, **values)
        #: Option tests the rules make on hot paths, answered once (options are immutable).
        self.simultaneous_mulligan = self.options.mulligan_mode == "simultaneous"
        self.recycle_every_battle = self.options.discard_recycle == "every_battle"
        #: The cards given away at E3 (BR-5): the numbered hearts, and the King of Hearts with its variant.
        self.giftable = NUMBERED_HEARTS_MASK | (BIT[KING_OF_HEARTS] if self.options.kh_given_with_hearts else 0)
        #: The cards in play (BR-24): all 54 by default, or the subset ``deck_composition`` names; the deck is
        #: shuffled from ``deck_cards`` (card-id order, so the standard deck deals as it always has).
        self.deck_mask: int = self.options.cards
        self.deck_cards: tuple[int, ...] = tuple(cards_of(self.deck_mask))
        #: The end-of-battle stages and their methods (attributes, not ``cached_property``: see ``Game.codec``).
        self.stages = self._stages()
        self.stage_steps = self._stage_steps()

    def _stages(self) -> tuple[str, ...]:
        """The end-of-battle stages in order (RULINGS §2.2 E1–E11, moved by BR-10 and BR-12 variants)."""
        options = self.options
        stages = ["reveal"]
        if options.joker_timing == "at_reveal":
            stages.append("jokers")  # E2
        stages += ["hearts", "queens"]  # E3, E4
        if options.joker_timing == "after_provisional_score":
            stages.append("jokers")
        if options.kh_timing == "before_scoring":
            stages.append("kh")
        stages.append("score")  # E5–E6 (and E11 when decided)
        if options.kh_timing == "after_scoring":
            stages.append("kh")  # E7
        stages += ["discard", "ks", "draw"]  # E8, E9, E10–E11
        return tuple(stages)

    def _stage_steps(self) -> tuple[Callable[[Any], bool], ...]:
        """The stage methods in ``stages`` order (looked up once, not per battle)."""
        return tuple(getattr(BarrellState, "_stage_" + stage) for stage in self.stages)

    def play_actions(self, hand: int) -> tuple[Action, ...]:
        """The legal plays for a hand mask (every card, then ``pass``), in codec order."""
        return play_actions(hand)

    def mulligan_actions(self, hand: int) -> tuple[Action, ...]:
        """The mulligan choices for a hand mask (set any card aside, then ``keep``), in codec order."""
        return mulligan_actions(hand)

    def estimate_returns(self, state: State) -> list[float]:
        """Each seat's estimated share of the match win: battles won, the current battle's field values and
        hands, and the best-of-three structure (see ``evaluation.py``); a finished game gives its returns."""
        if state.is_terminal() or not isinstance(state, BarrellState):
            return super().estimate_returns(state)
        return evaluation.estimate_returns(state)

    def _all_actions(self) -> Sequence[Hashable]:
        return ALL_ACTIONS

    def _new_state(self, players: int, seed: int) -> BarrellState:
        check_table(self.deck_mask, players)  # a custom deck may be too small for this table (BR-24)
        state = BarrellState.empty(self, players, seed)
        state.deal()
        return state

    def _from_notation(self, text: str) -> BarrellState:
        from .notation import parse

        return parse(self, text)

    def normalise_move(self, text: str) -> str:
        """A move typed as the screen shows it, in canonical text (see ``actions.normalise_move``)."""
        from .actions import normalise_move

        return normalise_move(text)

    def render(self, observation: Mapping[str, Any]) -> str:
        """A plain-text picture of an observation."""
        from .render import render

        return render(observation)

    def render_compact(self, observation: Mapping[str, Any]) -> str:
        """The same picture in fewer lines, for a small terminal (the CLI's optional hook)."""
        from .render import render

        return render(observation, compact=True)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        """One English line per event view."""
        from .render import describe_event

        return describe_event(event)

    def describe_action(self, action: Hashable) -> str:
        """A short explanation of an action for menus."""
        from .render import describe_action

        return describe_action(action)
