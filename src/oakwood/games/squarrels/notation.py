"""S'Quarrels position notation: one line of ``key=value`` fields that rebuilds any position exactly.

Example (4 players, P2 drawing)::

    squarrels players=4 round=1 dealer=1 totals=0,0,0,0 last=- phase=drawing active=2 whirl=0
    hands=11233G/45/R/- storage=13/5*/-/- deck=W2Q1… hoard=1@1,3@3 discard=QH golden_out=0
    quarrel=- race=- winners=- rng=7:123

Seats are written 1-based (P1 = ``1``). Cards use one symbol each: ``R`` Rotten, ``1``–``5``, ``G``
Golden, ``Q`` Quarrel, ``H`` Hoard, ``A`` Ambush, ``V`` Whirlwind, ``W`` Winter. ``hands`` and ``storage``
list seats separated by ``/`` (``-`` for empty); a stored set is its value, ``*`` marking one completed by
the Golden. ``deck`` is written bottom to top (the last symbol is drawn next). ``hoard`` lists
``card@seat`` (who discarded it), oldest first. ``quarrel=drawer|live|commits|pot`` and
``race=drawer|eligible|passed|commits`` describe a pending decision. ``rng=seed:counter``.
``known`` (SQ-24, left out when empty) lists ``observer>holder:cards``: the cards seat ``observer`` knows to be
in seat ``holder``'s hand (with its pending Quarrel play), ``*`` as the observer for what every seat knows;
each seat's list includes the public cards, e.g. ``known=*>2:5,1>2:55,3>2:5``.

The reader refuses, with :class:`InvalidNotationError` naming the field, both text it cannot parse and
positions the game cannot reach; ``consistency.py`` lists the rules (conservation of the 120 cards, Winter
in the Deck while a round runs, phase fields, totals and winners, the pending Quarrel and Hoard race).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from oakwood.engine import InvalidNotationError, Rng
from oakwood.engine.errors import shown  # error messages quote at most ~80 characters of a bad value

from .cards import ALL_KINDS, GOLDEN, HAND_KINDS, SYMBOL_TO_CARD, SYMBOLS
from .consistency import refuse_unreachable
from .state import PHASES, QUARREL, RACE, SQuarrelsState

if TYPE_CHECKING:
    from .game import SQuarrels

HEADER = "squarrels"
FIELDS = (
    "players",
    "round",
    "dealer",
    "totals",
    "last",
    "phase",
    "active",
    "whirl",
    "hands",
    "storage",
    "deck",
    "hoard",
    "discard",
    "golden_out",
    "quarrel",
    "race",
    "winners",
    "rng",
    "known",
)
#: Fields that may be left out: ``known`` is written only when some seat knows a card in another hand.
OPTIONAL = frozenset({"known"})


# ---------------------------------------------------------------------- writing
def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ",".join(str(s + 1) for s in seats) or "-"


def _cards(cards: list[int]) -> str:
    return "".join(SYMBOLS[c] for c in cards) or "-"


def write(state: SQuarrelsState) -> str:
    """The notation of a position."""
    n = state.num_players
    hands = "/".join(_cards(state._hand_list(s)) for s in range(n))
    storage = "/".join(
        "".join(SYMBOLS[e % 10] + ("*" if e > 10 else "") for e in state.storage[s]) or "-" for s in range(n)
    )
    discard = _cards([c for c in range(ALL_KINDS) for _ in range(state.action_discard[c])])
    hoard = ",".join(f"{SYMBOLS[c]}@{s + 1}" for c, s in state.hoard) or "-"
    quarrel = "-"
    if state.phase == QUARREL:
        commits = ",".join(f"{SYMBOLS[c]}@{s + 1}" for s, c in sorted(state.q_commits.items())) or "-"
        pot = ",".join(f"{SYMBOLS[c]}@{s + 1}" for c, s in state.q_pot) or "-"
        quarrel = f"{state.q_drawer + 1}|{_seats(state.q_live)}|{commits}|{pot}"
    race = "-"
    if state.phase == RACE:
        commits = ",".join(f"{'slap' if v else 'pass'}@{s + 1}" for s, v in sorted(state.r_commits.items())) or "-"
        race = f"{state.r_drawer + 1}|{_seats(state.r_eligible)}|{_seats(state.r_passed)}|{commits}"
    last = "-" if state.last_round is None else ",".join(str(v) for v in state.last_round)
    values = {
        "players": str(n),
        "round": str(state.round_no),
        "dealer": str(state.dealer + 1),
        "totals": ",".join(str(t) for t in state.totals),
        "last": last,
        "phase": state.phase,
        "active": str(state.active + 1),
        "whirl": "1" if state.whirl_forced else "0",
        "hands": hands,
        "storage": storage,
        "deck": _cards(state.deck),
        "hoard": hoard,
        "discard": discard,
        "golden_out": "1" if state.golden_out else "0",
        "quarrel": quarrel,
        "race": race,
        "winners": _seats(state.winners_),
        "rng": f"{state.rng.seed}:{state.rng.counter}",
    }
    known = _known(state)
    if known:
        values["known"] = known
    return " ".join([HEADER, *(f"{k}={values[k]}" for k in FIELDS if k in values)])


def _known(state: SQuarrelsState) -> str:
    items: list[str] = []
    known = state.knowledge()
    for holder in sorted(known):
        row = known[holder]
        for observer in [holder, *(o for o in range(state.num_players) if o != holder)]:
            cards = [c for c in range(HAND_KINDS) for _ in range(row[observer][c])]
            if cards:
                who = "*" if observer == holder else str(observer + 1)
                items.append(f"{who}>{holder + 1}:{_cards(cards)}")
    return ",".join(items)


# ---------------------------------------------------------------------- reading
MAX_TEXT = 10_000  # a real position is under 2,000 characters: 120 cards, six seats, two pending decisions
_INTEGER = re.compile(r"-?[0-9]{1,12}")  # ASCII digits only: int() would also take '1_0', '+1' or '٣'
_RNG = re.compile(r"(-?[0-9]{1,40}):([0-9]{1,40})")  # digits enough to say which bound is broken
SEED_RANGE = (-(2**127), 2**128)  # the generator's seeds: [low, high)
COUNTER_LIMIT = 2**64  # the generator's counters: [0, limit)


class _Reader:
    """Parses fields, raising InvalidNotationError that names the field and the offending text."""

    def __init__(self, text: str) -> None:
        if len(text) > MAX_TEXT:
            raise InvalidNotationError(f"a S'Quarrels position is at most {MAX_TEXT} characters long")
        parts = text.split()
        if not parts or parts[0] != HEADER:
            raise InvalidNotationError(f"S'Quarrels notation starts with {HEADER!r}", text=text[:40])
        self.values: dict[str, str] = {}
        for part in parts[1:]:
            key, eq, value = part.partition("=")
            if not eq:
                raise InvalidNotationError("expected key=value", text=part)
            if key not in FIELDS:
                raise InvalidNotationError(f"unknown field {shown(key)}; fields are {', '.join(FIELDS)}", text=part)
            if key in self.values:
                raise InvalidNotationError("field given twice", field=key)
            self.values[key] = value
        missing = [f for f in FIELDS if f not in self.values and f not in OPTIONAL]
        if missing:
            raise InvalidNotationError(f"missing field(s): {', '.join(missing)}")
        self.players = self.integer("players", 2, 6)

    def raw(self, key: str) -> str:
        return self.values[key]

    def fail(self, key: str, message: str) -> InvalidNotationError:
        return InvalidNotationError(message, field=key, text=self.values[key])

    def integer(self, key: str, low: int, high: int, text: str | None = None) -> int:
        raw = self.values[key] if text is None else text
        if not _INTEGER.fullmatch(raw):
            raise self.fail(key, "expected a whole number")
        value = int(raw)
        if not low <= value <= high:
            raise self.fail(key, f"must be between {low} and {high}")
        return value

    def flag(self, key: str) -> bool:
        raw = self.values[key]
        if raw not in ("0", "1"):
            raise self.fail(key, "expected 0 or 1")
        return raw == "1"

    def seat(self, key: str, text: str) -> int:
        return self.integer(key, 1, self.players, text) - 1

    def seats(self, key: str, text: str) -> list[int]:
        return [] if text == "-" else [self.seat(key, t) for t in text.split(",")]

    def cards(self, key: str, text: str, hand_only: bool = False) -> list[int]:
        if text == "-":
            return []
        if not text:
            raise self.fail(key, "write '-' for no cards")
        out = []
        for symbol in text:
            card = SYMBOL_TO_CARD.get(symbol)
            if card is None:
                raise self.fail(key, f"unknown card symbol {symbol!r} (use {SYMBOLS})")
            if hand_only and card >= HAND_KINDS:
                raise self.fail(key, f"an Action card ({symbol}) cannot be here")
            out.append(card)
        return out

    def per_seat(self, key: str) -> list[str]:
        parts = self.values[key].split("/")
        if len(parts) != self.players:
            raise self.fail(key, f"expected {self.players} seats separated by '/'")
        return parts

    def numbers(self, key: str) -> list[int]:
        parts = self.values[key].split(",")
        if len(parts) != self.players:
            raise self.fail(key, f"expected {self.players} comma-separated numbers")
        if not all(_INTEGER.fullmatch(p) for p in parts):
            raise self.fail(key, "expected whole numbers")
        return [int(p) for p in parts]

    def card_at_seats(self, key: str, text: str) -> list[tuple[int, int]]:
        if text == "-":
            return []
        out = []
        for item in text.split(","):
            symbol, at, seat = item.partition("@")
            if not at or len(symbol) != 1 or symbol == "-":
                raise self.fail(key, f"expected card@seat, got {shown(item)}")
            out.append((self.cards(key, symbol, hand_only=True)[0], self.seat(key, seat)))
        return out

    def rng(self) -> Rng:
        match = _RNG.fullmatch(self.values["rng"])
        if not match:
            raise self.fail("rng", "expected seed:counter (whole numbers, the counter not negative)")
        seed, counter = int(match[1]), int(match[2])
        if not SEED_RANGE[0] <= seed < SEED_RANGE[1]:
            raise self.fail("rng", "the seed must be at least -2**127 and below 2**128")
        if counter >= COUNTER_LIMIT:
            raise self.fail("rng", "the counter must be below 2**64")
        try:
            return Rng(seed, counter)
        except ValueError as exc:
            raise self.fail("rng", str(exc)) from None


def read(game: SQuarrels, text: str) -> SQuarrelsState:
    """Rebuild the position written in ``text``; refuse (InvalidNotationError) anything the game cannot reach."""
    r = _Reader(text)
    n = r.players
    rng = r.rng()
    state = SQuarrelsState(game, n, rng.seed, deal=False)
    state.rng = rng
    state._start = text
    state.round_no = r.integer("round", 1, 10**6)
    state.dealer = r.seat("dealer", r.raw("dealer"))
    state.totals = r.numbers("totals")
    state.last_round = None if r.raw("last") == "-" else r.numbers("last")
    phase = r.raw("phase")
    if phase not in PHASES:
        raise r.fail("phase", f"unknown phase; phases are {', '.join(PHASES)}")
    state.phase = phase
    state.active = r.seat("active", r.raw("active"))
    state.whirl_forced = r.flag("whirl")
    for seat, part in enumerate(r.per_seat("hands")):
        for card in r.cards("hands", part, hand_only=True):
            state._give(seat, card)
    for seat, part in enumerate(r.per_seat("storage")):
        state.storage[seat] = _read_storage(r, part)
    state.deck = r.cards("deck", r.raw("deck"))
    state.hoard = r.card_at_seats("hoard", r.raw("hoard"))
    for card in r.cards("discard", r.raw("discard")):
        state.action_discard[card] += 1
    state.golden_out = r.flag("golden_out")
    _read_quarrel(r, state)
    _read_race(r, state)
    state.winners_ = r.seats("winners", r.raw("winners"))
    state.known_base = _read_known(r, n)
    refuse_unreachable(state)  # Game.from_notation then runs the generic checks (invariants, seats to act)
    return state


def _read_storage(r: _Reader, text: str) -> list[int]:
    if text == "-":
        return []
    if not text:
        raise r.fail("storage", "write '-' for an empty Storage Pile")
    out: list[int] = []
    for symbol in text:
        if symbol == "*":
            if not out or out[-1] > 10:
                raise r.fail("storage", "'*' must follow a set value")
            out[-1] += 10
            continue
        card = SYMBOL_TO_CARD.get(symbol)
        if card is None or not 1 <= card < GOLDEN:
            raise r.fail("storage", f"a stored set is a value 1-5, not {symbol!r}")
        out.append(card)
    return out


def _read_quarrel(r: _Reader, state: SQuarrelsState) -> None:
    text = r.raw("quarrel")
    if state.phase != QUARREL:
        if text != "-":
            raise r.fail("quarrel", "only a quarrel phase has a pending Quarrel")
        return
    parts = text.split("|")
    if len(parts) != 4:
        raise r.fail("quarrel", "expected drawer|live|commits|pot")
    state.q_drawer = r.seat("quarrel", parts[0])
    state.q_live = tuple(r.seats("quarrel", parts[1]))
    commits = r.card_at_seats("quarrel", parts[2])
    state.q_commits = {seat: card for card, seat in commits}
    state.q_pot = r.card_at_seats("quarrel", parts[3])
    if len(state.q_commits) != len(commits):
        raise r.fail("quarrel", "a player commits one card at a time")
    if not set(state.q_commits) <= set(state.q_live) or not state.q_live:
        raise r.fail("quarrel", "commits must come from live players, and someone must be live")


def _read_race(r: _Reader, state: SQuarrelsState) -> None:
    text = r.raw("race")
    if state.phase != RACE:
        if text != "-":
            raise r.fail("race", "only a race phase has a pending Hoard race")
        return
    parts = text.split("|")
    if len(parts) != 4:
        raise r.fail("race", "expected drawer|eligible|passed|commits")
    state.r_drawer = r.seat("race", parts[0])
    state.r_eligible = tuple(r.seats("race", parts[1]))
    state.r_passed = r.seats("race", parts[2])
    commits: dict[int, bool] = {}
    if parts[3] != "-":
        for item in parts[3].split(","):
            verb, at, seat_text = item.partition("@")
            if verb not in ("slap", "pass") or not at:
                raise r.fail("race", f"expected slap@seat or pass@seat, got {shown(item)}")
            seat = r.seat("race", seat_text)
            if seat in commits:
                raise r.fail("race", "a player answers the race once")
            commits[seat] = verb == "slap"
    state.r_commits = commits
    if len(state.r_eligible) < 2:
        raise r.fail("race", "a race needs at least two eligible players")


def _read_known(r: _Reader, players: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """``observer>holder:cards`` items; each (observer, holder) once, the holder never its own observer."""
    text = r.values.get("known")
    if text is None:
        return {}
    if text == "-" or not text:
        raise r.fail("known", "leave the field out when nobody knows a card in another hand")
    rows: dict[int, list[list[int]]] = {}
    seen: set[tuple[int, int]] = set()
    for item in text.split(","):
        who, arrow, rest = item.partition(">")
        holder_text, colon, cards_text = rest.partition(":")
        if not arrow or not colon or cards_text in ("", "-"):
            raise r.fail("known", f"expected observer>holder:cards, got {shown(item)}")
        holder = r.seat("known", holder_text)
        observer = holder if who == "*" else r.seat("known", who)
        if who != "*" and observer == holder:
            raise r.fail("known", "a seat's own hand is not listed in what it knows of others (use * for public)")
        if (observer, holder) in seen:
            raise r.fail("known", "each observer>holder pair is listed once")
        seen.add((observer, holder))
        row = rows.setdefault(holder, [[0] * HAND_KINDS for _ in range(players)])
        for card in r.cards("known", cards_text, hand_only=True):
            row[observer][card] += 1
    return {holder: tuple(tuple(vector) for vector in row) for holder, row in sorted(rows.items())}
