"""Toy Snap: a 2–4 player card game with a hidden hand, a turn, a commit and a race decision.

Round: the leader takes a TURN (``draw`` a random card from the deck, as often as the hand has room, then
``stay``); then a COMMIT where every seat plays a card (``play N``) face down; when all are in they are
revealed and the highest unique card scores 1; then a RACE (``slap`` / ``pass``): the first slapper scores
+1 if the revealed cards sum to an odd number, −1 otherwise. After ``rounds`` rounds the highest score wins.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from oakwood.engine import Decision, Event, Game, InvalidNotationError, Options, Rng, State, option, register

TOY_NAME = "toysnap"
MAX_HAND = 5


def register_toy() -> None:
    """Register the toy game under ``toysnap`` (idempotent)."""
    register(TOY_NAME, "tests.cli.toygame.game:ToySnap")


@dataclass(frozen=True)
class ToyOptions(Options):
    """Options of the toy game."""

    rounds: int = option(3, minimum=1, maximum=6, help="rounds to play", ruling="TS-2")
    race_window_s: float = option(5.0, minimum=0.5, help="how long the slap window stays open", ruling="TS-3")


@dataclass(frozen=True, slots=True)
class Simple:
    """``draw``, ``stay``, ``slap`` or ``pass``."""

    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Play:
    """Play the card ``value`` face down."""

    value: int

    def __str__(self) -> str:
        return f"play {self.value}"


DRAW, STAY, SLAP, PASS = Simple("draw"), Simple("stay"), Simple("slap"), Simple("pass")
PLAYS = tuple(Play(v) for v in range(1, 7))
ACTIONS: tuple[Hashable, ...] = (DRAW, STAY, *PLAYS, SLAP, PASS)


class ToyState(State):
    """The whole truth of a toy match."""

    def __init__(self, game: ToySnap, players: int, seed: int) -> None:
        self._init_base(game, players, seed)
        self.deck = [v for v in range(1, 7) for _ in range(3)]
        self.rng.shuffle(self.deck)
        self.hands = [sorted(self.deck.pop() for _ in range(3)) for _ in range(players)]
        self.commits: list[int | None] = [None] * players
        self.revealed: list[int] = []
        self.points = [0] * players
        self.round = 0
        self.phase = "turn"
        self.racers: list[int] = []
        for seat in range(players):
            self.log(Event("deal", {"player": seat}, {"hand": list(self.hands[seat])}, frozenset({seat})))

    @property
    def leader(self) -> int:
        return self.round % self.num_players

    def _to_act(self) -> tuple[int, ...]:
        if self.phase == "turn":
            return (self.leader,)
        if self.phase == "commit":
            return tuple(s for s in range(self.num_players) if self.commits[s] is None)
        if self.phase == "race":
            return tuple(self.racers)
        return ()

    def _decision(self) -> Decision:
        return {"turn": Decision.TURN, "commit": Decision.COMMIT, "race": Decision.RACE}.get(self.phase, Decision.NONE)

    def _legal_actions(self, seat: int) -> Sequence[Hashable]:
        if self.phase == "turn":
            can_draw = self.deck and len(self.hands[seat]) < MAX_HAND
            return [DRAW, STAY] if can_draw else [STAY]
        if self.phase == "commit":
            return [p for p in PLAYS if p.value in self.hands[seat]]
        return [SLAP, PASS]

    def _why_illegal(self, seat: int, action: Hashable) -> str:
        if isinstance(action, Play) and self.phase == "commit":
            return f"you hold no {action.value}"
        if action == DRAW and self.phase == "turn":
            return "your hand is full" if self.deck else "the deck is empty"
        return f"{action} is not possible in the {self.phase} phase"

    def _apply(self, seat: int, action: Hashable) -> None:
        if action == DRAW:
            card = self.deck.pop(self.rng.randbelow(len(self.deck)))
            self.hands[seat].append(card)
            self.hands[seat].sort()
            self.log(Event("draw", {"player": seat}, {"card": card}, frozenset({seat})))
        elif action == STAY:
            self.log(Event("stay", {"player": seat}))
            self.phase = "commit"
        elif isinstance(action, Play):
            self.hands[seat].remove(action.value)
            self.commits[seat] = action.value
            self.log(Event("commit", {"player": seat}))
            if all(c is not None for c in self.commits):
                self._reveal()
        elif action == SLAP:
            odd = sum(self.revealed) % 2 == 1
            self.points[seat] += 1 if odd else -1
            self.log(Event("slap", {"player": seat, "odd": odd}))
            self._end_round()
        else:
            self.racers.remove(seat)
            self.log(Event("pass", {"player": seat}))
            if not self.racers:
                self._end_round()

    def _reveal(self) -> None:
        self.revealed = [c for c in self.commits if c is not None]
        self.log(Event("reveal", {"cards": list(self.revealed)}))
        top = max(self.revealed)
        if self.revealed.count(top) == 1:
            winner = self.revealed.index(top)
            self.points[winner] += 1
            self.log(Event("point", {"player": winner}))
        self.commits = [None] * self.num_players
        self.phase = "race"
        self.racers = list(range(self.num_players))

    def _end_round(self) -> None:
        self.racers = []
        self.round += 1
        empty = any(not h for h in self.hands)
        self.phase = "over" if self.round >= self.game.options.rounds or empty else "turn"

    def _is_terminal(self) -> bool:
        return self.phase == "over"

    def _scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def _winners(self) -> list[int]:
        best = max(self.points)
        return [s for s, p in enumerate(self.points) if p == best]

    def _observe(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": TOY_NAME,
            "seat": seat,
            "players": self.num_players,
            "decision": str(self._decision()),
            "to_act": list(self._to_act()),
            "phase": self.phase,
            "scores": self._scores(),
            "terminal": self._is_terminal(),
            "winners": self.winners(),
            "round": self.round,
            "leader": self.leader,
            "hand": None if seat is None else list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "committed": [c is not None for c in self.commits],
            "my_commit": None if seat is None else self.commits[seat],
            "revealed": list(self.revealed),
            "deck": len(self.deck),
        }

    def _determinize(self, seat: int, rng: Rng) -> Self:
        twin = self._clone()
        pool = list(twin.deck)
        for other in range(self.num_players):
            if other != seat:
                pool += twin.hands[other]
                c = twin.commits[other]
                if c is not None:
                    pool.append(c)
        # Sorted before shuffling, as every game does: a world is a function of what the seat knows, whatever
        # order the hidden cards lie in (worlds draw from the searching bot's own stream, issue 36).
        pool.sort()
        rng.shuffle(pool)
        for other in range(self.num_players):
            if other != seat:
                n = len(twin.hands[other])
                twin.hands[other] = sorted(pool.pop() for _ in range(n))
                if twin.commits[other] is not None:
                    twin.commits[other] = pool.pop()
        twin.deck = pool
        return twin

    def _clone(self) -> Self:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        twin.deck = list(self.deck)
        twin.hands = [list(h) for h in self.hands]
        twin.commits = list(self.commits)
        twin.revealed = list(self.revealed)
        twin.points = list(self.points)
        twin.round = self.round
        twin.phase = self.phase
        twin.racers = list(self.racers)
        return twin

    def to_notation(self) -> str:
        fields = {
            "players": self.num_players,
            "rng": list(self.rng.state()),
            "deck": self.deck,
            "hands": self.hands,
            "commits": self.commits,
            "revealed": self.revealed,
            "points": self.points,
            "round": self.round,
            "phase": self.phase,
            "racers": self.racers,
        }
        return json.dumps(fields, separators=(",", ":"))

    def _check_invariants(self) -> None:
        return None


class ToySnap(Game[ToyOptions]):
    """The toy game."""

    name = TOY_NAME
    title = "Toy Snap"
    min_players = 2
    max_players = 4
    options_class = ToyOptions
    agents: Mapping[str, str] = {"heuristic": "tests.cli.toygame.game:ToyHeuristic"}
    #: ``stay`` and one's own face-down ``commit`` reveal nothing; ``draw``, ``reveal``, ``point``… do.
    quiet_events = frozenset({"stay", "commit"})

    def _all_actions(self) -> Sequence[Hashable]:
        return ACTIONS

    def _new_state(self, players: int, seed: int) -> State:
        return ToyState(self, players, seed)

    def _from_notation(self, text: str) -> State:
        try:
            data = json.loads(text)
            state = ToyState.__new__(ToyState)
            seed, counter = data["rng"]
            state._init_base(self, int(data["players"]), int(seed), start=text)
            state.rng = Rng(int(seed), int(counter))
            for key in ("deck", "hands", "commits", "revealed", "points", "round", "phase", "racers"):
                setattr(state, key, data[key])
        except (ValueError, KeyError, TypeError) as exc:
            raise InvalidNotationError(f"bad toy notation: {exc}") from None
        return state

    def render(self, observation: Mapping[str, Any]) -> str:
        lines = [f"Round {observation['round'] + 1}   leader P{observation['leader'] + 1}   deck {observation['deck']}"]
        if observation["hand"] is not None:
            lines.append("Your hand: " + " ".join(str(c) for c in observation["hand"]))
        sizes = "  ".join(f"P{s + 1}:{n}" for s, n in enumerate(observation["hand_sizes"]))
        lines.append(f"Hand sizes: {sizes}")
        if observation["revealed"]:
            lines.append("Revealed: " + " ".join(str(c) for c in observation["revealed"]))
        return "\n".join(lines)

    def describe_event(self, event: Mapping[str, Any]) -> str:
        kind = event["kind"]
        who = f"P{event['player'] + 1}" if "player" in event else ""
        if kind == "deal":
            return f"{who} was dealt {event['hand']}" if "hand" in event else f"{who} was dealt 3 cards"
        if kind == "draw":
            return f"{who} drew a {event['card']}" if "card" in event else f"{who} drew a card"
        if kind == "reveal":
            return "Revealed: " + ", ".join(str(c) for c in event["cards"])
        if kind == "slap":
            return f"{who} slapped ({'odd: +1' if event['odd'] else 'even: -1'})"
        return f"{who} {kind}".strip()

    def describe_action(self, action: Hashable) -> str:
        if action == DRAW:
            return "take a random card from the deck"
        if action == SLAP:
            return "slap the pile"
        return str(action)


class ToyHeuristic:
    """Plays its highest card, stays at 4 cards, slaps when the revealed sum is odd."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, view: Any) -> Hashable:
        """A simple sensible move from the view."""
        from oakwood.engine.agent import Choice

        obs = view.observation
        legal = view.legal_actions
        if obs["phase"] == "turn":
            return DRAW if DRAW in legal and len(obs["hand"]) < 4 else STAY
        if obs["phase"] == "commit":
            return legal[-1]
        odd = sum(obs["revealed"]) % 2 == 1
        return Choice(SLAP if odd else PASS, delay=0.3 + 0.2 * self.rng.random())
