"""Barrell notation: one line of ``key=value`` fields that rebuilds any position exactly.

Example (2 players, battle 1: P1 played the J♥ face up, P2 the 4♦, P1 the 9♣; P2 to play)::

    barrell n=2 rng=7:40 battle=1 first=1 phase=play active=2 wins=0.0 drawn=0 passed=- need=- committed=-
    jd=0 jdc=- jvoid=- hands=AS.7S.JD|2H.KC~* aside=| fields=^JH.9C|4D queen= deck=AC.2C…3C.QS discard=
    give=| gifts=-.- targets=- jokers=- scores=- prov=- bwin=-

(on one line, the Deck shortened here). Seats are written 1-based. Card lists are separated by ``.``,
per-seat zones by ``|``. A position the game cannot reach is refused, naming the field at fault: the rules are
listed in ``consistency.py``.

- ``hands``/``aside``: a card may carry ``~`` and the seats that know it (``~*`` every seat, ``~-`` nobody);
  without it only the owner knows it.
- ``fields``: ``^`` marks a face-up card (known to all); a face-down card is known by default to the field's
  owner only, else it carries ``~seats`` like a hand card.
- ``deck`` is listed bottom to top (the last card is drawn next) and is known to nobody; ``queen`` and
  ``discard`` are public.
- ``need``/``committed``: the seats in the current commit decision and those done (also the sequential
  mulligan's finished seats); ``jdc``/``jvoid``: the cards on the table when the J♦ was played and the Jacks
  it cancelled; ``give``/``gifts``/``targets``: the E3 hearts to give, the chosen recipients and per-card
  recipients; ``jokers``: Jokers already decided; ``scores``/``prov``/``bwin``: the battle's (provisional)
  scores and winners; ``rng`` is ``seed:counter``.
- ``recall`` (optional, written only when not empty): per seat, the cards every seat knows to be in that hand
  or among the cards it played face down this battle, not which (BR-23), e.g. ``recall=9S.KH|``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from oakwood.engine import InvalidNotationError, Rng
from oakwood.engine.rng import COUNTER_MAX, SEED_MAX, SEED_MIN

from .cards import BIT, NAMES, cards_of, parse_card
from .consistency import check_position
from .state import BarrellState

if TYPE_CHECKING:
    from .game import Barrell

PHASES = ("mulligan", "play", "swap", "jokers", "hearts", "kh", "ks", "over")
KEYS = (
    "n", "rng", "battle", "first", "phase", "active", "wins", "drawn", "passed", "need", "committed", "jd", "jdc",
    "jvoid", "hands", "aside", "fields", "queen", "deck", "discard", "give", "gifts", "targets", "jokers", "scores",
    "prov", "bwin",
)  # fmt: skip
#: Fields written only when they hold something (positions without them read as before).
OPTIONAL_KEYS = ("recall",)


# ---------------------------------------------------------------------------------------------- writing
def _seats(mask: int) -> str:
    return "".join(str(s + 1) for s in range(8) if mask >> s & 1) or "-"


def _knowledge(mask: int, default: int, everyone: int) -> str:
    if mask == default:
        return ""
    if mask == everyone:
        return "~*"
    return "~" + _seats(mask)


def _ints(values: list[int] | None) -> str:
    return "-" if values is None else ".".join(str(v) for v in values)


def _cards(cards: list[int]) -> str:
    return ".".join(NAMES[c] for c in cards)


def write(state: BarrellState) -> str:
    """The notation of ``state``."""
    n = state.num_players
    everyone = state.all_seats
    known = state.known
    hands = []
    asides = []
    fields = []
    for seat in range(n):
        own = 1 << seat
        hands.append(".".join(NAMES[c] + _knowledge(known[c], own, everyone) for c in cards_of(state.hands[seat])))
        asides.append(".".join(NAMES[c] + _knowledge(known[c], own, everyone) for c in cards_of(state.aside[seat])))
        slots = []
        for card in state.fields[seat]:
            if state.face_up & BIT[card]:
                slots.append("^" + NAMES[card])
            else:
                slots.append(NAMES[card] + _knowledge(known[card], own, everyone))
        fields.append(".".join(slots))
    targets = ".".join(f"{NAMES[c]}>{t + 1}" for c, t in sorted(state.card_target.items())) or "-"
    parts = {
        "n": str(n),
        "rng": f"{state.rng.seed}:{state.rng.counter}",
        "battle": str(state.battle),
        "first": str(state.first + 1),
        "phase": state.phase,
        "active": "-" if state.active < 0 else str(state.active + 1),
        "wins": _ints(state.wins),
        "drawn": str(state.drawn_streak),
        "passed": _seats(state.passed),
        "need": _seats(state.need),
        "committed": _seats(state.committed),
        "jd": "1" if state.jd_active else "0",
        "jdc": _cards(cards_of(state.jd_cover)) or "-",
        "jvoid": _cards(cards_of(state.jacks_void)) or "-",
        "hands": "|".join(hands),
        "aside": "|".join(asides),
        "fields": "|".join(fields),
        "queen": _cards(state.queen_zone),
        "deck": _cards(state.deck),
        "discard": _cards(state.discard),
        "give": "|".join(_cards(cards_of(m)) for m in state.to_give),
        "gifts": ".".join("-" if t < 0 else str(t + 1) for t in state.gift_target),
        "targets": targets,
        "jokers": _cards(cards_of(state.jokers_done)) or "-",
        "scores": _ints(state.battle_scores),
        "prov": _ints(state.provisional_scores),
        "bwin": _seats(sum(1 << s for s in state.battle_winners)),
    }
    text = "barrell " + " ".join(f"{key}={parts[key]}" for key in KEYS)
    if any(state.recall):
        text += " recall=" + "|".join(_cards(cards_of(m)) for m in state.recall)
    return text


# ---------------------------------------------------------------------------------------------- parsing
_INTEGER = re.compile(r"-?[0-9]{1,40}")
#: Battle scores lie between every numbered heart doubled by a King of Clubs and every other numbered card
#: (Aces at 11) doubled: −(11 + 2 + … + 10) × 2 and 3 × 65 × 2.
SCORE_RANGE = (-130, 390)
MAX_BATTLES = 1_000_000
MAX_WINS = 1_000_000


class _Reader:
    """Reads field values for an ``n``-player position; every error names the field and quotes the bad value
    (the engine's error cuts it short). Also records which zone each card was placed in, so a card
    named twice is reported where it appears the second time."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.placed = 0

    def fail(self, field: str, message: str, value: str | None = None) -> InvalidNotationError:
        return InvalidNotationError(message, field=field, text=value)

    def integer(self, field: str, value: str, low: int, high: int) -> int:
        if not _INTEGER.fullmatch(value):
            raise self.fail(field, "expected a whole number", value)
        number = int(value)
        if not low <= number <= high:
            raise self.fail(field, f"must be between {low} and {high}", value)
        return number

    def seat(self, field: str, value: str) -> int:
        return self.integer(field, value, 1, self.n) - 1

    def seats(self, field: str, value: str) -> int:
        """A set of seats written as digits (``13``), or ``-`` for none."""
        if value == "-":
            return 0
        if not value:
            raise self.fail(field, "expected seat numbers or '-'", value)
        mask = 0
        for ch in value:
            bit = 1 << self.seat(field, ch)
            if mask & bit:
                raise self.fail(field, f"seat {ch} is named twice", value)
            mask |= bit
        return mask

    def ints(self, field: str, value: str, low: int, high: int) -> list[int] | None:
        """One number per seat separated by ``.``, or ``-`` for none."""
        if value == "-":
            return None
        parts = value.split(".")
        if len(parts) != self.n:
            raise self.fail(field, f"expected {self.n} numbers", value)
        return [self.integer(field, v, low, high) for v in parts]

    def cards(self, field: str, value: str) -> list[int]:
        """A ``.``-separated card list (``-`` or nothing for none), each card named once."""
        if value in ("", "-"):
            return []
        out = [parse_card(token, field=field) for token in value.split(".")]
        if len(set(out)) != len(out):
            raise self.fail(field, "a card is named twice", value)
        return out

    def card_mask(self, field: str, value: str) -> int:
        mask = 0
        for card in self.cards(field, value):
            mask |= BIT[card]
        return mask

    def place(self, field: str, card: int) -> None:
        """Record that ``card`` lies in the zone of ``field``: every card lies in exactly one zone."""
        if self.placed & BIT[card]:
            raise self.fail(field, f"{NAMES[card]} is named twice: every card lies in exactly one place")
        self.placed |= BIT[card]

    def per_seat(self, field: str, value: str) -> list[str]:
        parts = value.split("|")
        if len(parts) != self.n:
            raise self.fail(field, f"expected {self.n} seats separated by '|'", value)
        return parts

    def card_with_knowledge(self, field: str, token: str, default: int) -> tuple[int, int]:
        name, tilde, who = token.partition("~")
        card = parse_card(name, field=field)
        if not tilde:
            return card, default
        if who == "*":
            return card, (1 << self.n) - 1
        if not who:
            raise self.fail(field, "expected the seats that know the card after '~' ('-' for nobody)", token)
        return card, self.seats(field, who)


def parse(game: Barrell, text: str) -> BarrellState:
    """The state written in ``text``; :class:`InvalidNotationError` names the bad field.

    The text is first read field by field, then :func:`~.consistency.check_position` refuses every position
    that is not a real position of the game (see that module for the rules).
    """
    tokens = text.split()
    if not tokens or tokens[0] != "barrell":
        raise InvalidNotationError("Barrell notation starts with 'barrell'", field="header", text=text)
    values: dict[str, str] = {}
    for token in tokens[1:]:
        key, eq, value = token.partition("=")
        if not eq or (key not in KEYS and key not in OPTIONAL_KEYS):
            raise InvalidNotationError(
                f"unknown field (the fields are {', '.join((*KEYS, *OPTIONAL_KEYS))})", text=token
            )
        if key in values:
            raise InvalidNotationError("field given twice", field=key, text=token)
        values[key] = value
    missing = [k for k in KEYS if k not in values]
    if missing:
        raise InvalidNotationError(f"missing field(s) {', '.join(missing)}", field=missing[0])
    n = _Reader(4).integer("n", values["n"], game.min_players, game.max_players)
    read = _Reader(n)
    seed_text, colon, counter_text = values["rng"].partition(":")
    if not colon:
        raise read.fail("rng", "expected seed:counter", values["rng"])
    seed = read.integer("rng", seed_text, SEED_MIN, SEED_MAX)  # what the engine's generator accepts
    counter = read.integer("rng", counter_text, 0, COUNTER_MAX)
    try:
        state = BarrellState.empty(game, n, seed, start=text)
        state.rng = Rng(seed, counter)
    except ValueError as exc:  # the engine's own limits on a generator
        raise read.fail("rng", str(exc), values["rng"]) from None
    state.battle = read.integer("battle", values["battle"], 1, MAX_BATTLES)
    state.first = read.seat("first", values["first"])
    if values["phase"] not in PHASES:
        raise read.fail("phase", f"must be one of {', '.join(PHASES)}", values["phase"])
    state.phase = values["phase"]
    state.active = -1 if values["active"] == "-" else read.seat("active", values["active"])
    wins = read.ints("wins", values["wins"], 0, MAX_WINS)
    if wins is None:
        raise read.fail("wins", "expected one non-negative number per seat", values["wins"])
    state.wins = wins
    state.drawn_streak = read.integer("drawn", values["drawn"], 0, MAX_BATTLES)
    state.passed = read.seats("passed", values["passed"])
    state.need = read.seats("need", values["need"])
    state.committed = read.seats("committed", values["committed"])
    if values["jd"] not in ("0", "1"):
        raise read.fail("jd", "must be 0 or 1", values["jd"])
    state.jd_active = values["jd"] == "1"
    state.jd_cover = read.card_mask("jdc", values["jdc"])
    state.jacks_void = read.card_mask("jvoid", values["jvoid"])
    everyone = state.all_seats
    for seat, part in enumerate(read.per_seat("hands", values["hands"])):
        for token in part.split(".") if part else []:
            card, who = read.card_with_knowledge("hands", token, 1 << seat)
            read.place("hands", card)
            state.hands[seat] |= BIT[card]
            state.known[card] = who
    for seat, part in enumerate(read.per_seat("aside", values["aside"])):
        for token in part.split(".") if part else []:
            card, who = read.card_with_knowledge("aside", token, 1 << seat)
            read.place("aside", card)
            state.aside[seat] |= BIT[card]
            state.known[card] = who
    for seat, part in enumerate(read.per_seat("fields", values["fields"])):
        for token in part.split(".") if part else []:
            if token.startswith("^"):
                card = parse_card(token[1:], field="fields")
                state.face_up |= BIT[card]
                state.known[card] = everyone
            else:
                card, who = read.card_with_knowledge("fields", token, 1 << seat)
                state.known[card] = who
            read.place("fields", card)
            state.fields[seat].append(card)
    for key in ("queen", "deck", "discard"):
        cards = read.cards(key, values[key])
        for card in cards:
            read.place(key, card)
            state.known[card] = 0 if key == "deck" else everyone
        setattr(state, "queen_zone" if key == "queen" else key, cards)
    deck = game.deck_mask  # all 54 cards, or the subset of ``deck_composition`` (BR-24)
    if read.placed & ~deck:
        extra = " ".join(NAMES[c] for c in cards_of(read.placed & ~deck))
        raise read.fail("deck", "not in this game's deck (option deck_composition)", extra)
    if read.placed != deck:
        absent = " ".join(NAMES[c] for c in cards_of(deck & ~read.placed))
        raise read.fail("deck", f"every one of the {deck.bit_count()} cards must lie in a zone; missing", absent)
    state.to_give = [read.card_mask("give", part) for part in read.per_seat("give", values["give"])]
    gifts = values["gifts"].split(".")
    if len(gifts) != n:
        raise read.fail("gifts", f"expected {n} entries", values["gifts"])
    state.gift_target = [-1 if g == "-" else read.seat("gifts", g) for g in gifts]
    if values["targets"] != "-":
        for item in values["targets"].split("."):
            name, arrow, target = item.partition(">")
            if not arrow:
                raise read.fail("targets", "expected CARD>seat", item)
            card = parse_card(name, field="targets")
            if card in state.card_target:
                raise read.fail("targets", f"{NAMES[card]} is named twice", values["targets"])
            state.card_target[card] = read.seat("targets", target)
    state.jokers_done = read.card_mask("jokers", values["jokers"])
    state.battle_scores = read.ints("scores", values["scores"], *SCORE_RANGE)
    state.provisional_scores = read.ints("prov", values["prov"], *SCORE_RANGE)
    if "recall" in values:
        state.recall = [read.card_mask("recall", part) for part in read.per_seat("recall", values["recall"])]
    bwin = read.seats("bwin", values["bwin"])
    state.battle_winners = [s for s in range(n) if bwin >> s & 1]
    check_position(state)
    return state
