"""Barrell notation: one line of ``key=value`` fields that rebuilds any position exactly.

Example (2 players, battle 1, P1 to play)::

    barrell n=2 rng=7:40 battle=1 first=1 phase=play active=1 wins=0.0 drawn=0 passed=- need=- committed=-
    jd=0 jdc=- jvoid=- hands=AS.7S.JD|2H.KC~* aside=| fields=^JH.9C|4D~- queen= deck=3C.QS discard=
    give=| gifts=-.- targets=- jokers=- scores=- prov=- bwin=-

(on one line). Seats are written 1-based. Card lists are separated by ``.``, per-seat zones by ``|``.

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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oakwood.engine import InvalidNotationError, InvariantError, Rng

from .cards import BIT, DECK_SIZE, NAMES, cards_of, parse_card
from .phases import MULLIGAN_PHASE, OVER
from .state import BarrellState

if TYPE_CHECKING:
    from .game import Barrell

PHASES = ("mulligan", "play", "swap", "jokers", "hearts", "kh", "ks", "over")
KEYS = (
    "n", "rng", "battle", "first", "phase", "active", "wins", "drawn", "passed", "need", "committed", "jd", "jdc",
    "jvoid", "hands", "aside", "fields", "queen", "deck", "discard", "give", "gifts", "targets", "jokers", "scores",
    "prov", "bwin",
)  # fmt: skip


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
    return "barrell " + " ".join(f"{key}={parts[key]}" for key in KEYS)


# ---------------------------------------------------------------------------------------------- parsing
class _Reader:
    def __init__(self, text: str, n: int) -> None:
        self.text = text
        self.n = n

    def fail(self, field: str, message: str, value: str | None = None) -> InvalidNotationError:
        return InvalidNotationError(message, field=field, text=value)

    def integer(self, field: str, value: str, low: int, high: int) -> int:
        try:
            number = int(value)
        except ValueError:
            raise self.fail(field, "expected a whole number", value) from None
        if not low <= number <= high:
            raise self.fail(field, f"must be between {low} and {high}", value)
        return number

    def seat(self, field: str, value: str) -> int:
        return self.integer(field, value, 1, self.n) - 1

    def seats(self, field: str, value: str) -> int:
        if value == "-":
            return 0
        mask = 0
        for ch in value:
            mask |= 1 << self.seat(field, ch)
        return mask

    def ints(self, field: str, value: str, count: int | None) -> list[int] | None:
        if value == "-":
            return None
        out = [self.integer(field, v, -10_000, 10_000) for v in value.split(".")]
        if count is not None and len(out) != count:
            raise self.fail(field, f"expected {count} numbers", value)
        return out

    def cards(self, field: str, value: str) -> list[int]:
        if value in ("", "-"):
            return []
        return [parse_card(token, field=field) for token in value.split(".")]

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
        return card, self.seats(field, who)


def parse(game: Barrell, text: str) -> BarrellState:
    """The state written in ``text``; :class:`InvalidNotationError` names the bad field."""
    tokens = text.split()
    if not tokens or tokens[0] != "barrell":
        raise InvalidNotationError("Barrell notation starts with 'barrell'", field="header", text=text[:20])
    values: dict[str, str] = {}
    for token in tokens[1:]:
        key, eq, value = token.partition("=")
        if not eq or key not in KEYS:
            raise InvalidNotationError("unknown field", field=key or token, text=token)
        if key in values:
            raise InvalidNotationError("field given twice", field=key, text=token)
        values[key] = value
    missing = [k for k in KEYS if k not in values]
    if missing:
        raise InvalidNotationError(f"missing field(s) {', '.join(missing)}", field=missing[0])
    n = _Reader(text, 4).integer("n", values["n"], game.min_players, game.max_players)
    read = _Reader(text, n)
    seed_text, colon, counter_text = values["rng"].partition(":")
    if not colon:
        raise read.fail("rng", "expected seed:counter", values["rng"])
    seed = read.integer("rng", seed_text, -(2**63), 2**64)
    counter = read.integer("rng", counter_text, 0, 2**62)
    state = BarrellState.empty(game, n, seed, start=text)
    state.rng = Rng(seed, counter)
    state.battle = read.integer("battle", values["battle"], 0, 10_000)
    state.first = read.seat("first", values["first"])
    if values["phase"] not in PHASES:
        raise read.fail("phase", f"must be one of {', '.join(PHASES)}", values["phase"])
    state.phase = values["phase"]
    state.active = -1 if values["active"] == "-" else read.seat("active", values["active"])
    wins = read.ints("wins", values["wins"], n)
    if wins is None or min(wins) < 0:
        raise read.fail("wins", "expected one non-negative number per seat", values["wins"])
    state.wins = wins
    state.drawn_streak = read.integer("drawn", values["drawn"], 0, 10_000)
    state.passed = read.seats("passed", values["passed"])
    state.need = read.seats("need", values["need"])
    state.committed = read.seats("committed", values["committed"])
    if values["jd"] not in ("0", "1"):
        raise read.fail("jd", "must be 0 or 1", values["jd"])
    state.jd_active = values["jd"] == "1"
    state.jd_cover = sum(BIT[c] for c in read.cards("jdc", values["jdc"]))
    state.jacks_void = sum(BIT[c] for c in read.cards("jvoid", values["jvoid"]))
    everyone = state.all_seats
    for seat, part in enumerate(read.per_seat("hands", values["hands"])):
        for token in part.split(".") if part else []:
            card, who = read.card_with_knowledge("hands", token, 1 << seat)
            state.hands[seat] |= BIT[card]
            state.known[card] = who
    for seat, part in enumerate(read.per_seat("aside", values["aside"])):
        for token in part.split(".") if part else []:
            card, who = read.card_with_knowledge("aside", token, 1 << seat)
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
            state.fields[seat].append(card)
    state.queen_zone = read.cards("queen", values["queen"])
    state.deck = read.cards("deck", values["deck"])
    state.discard = read.cards("discard", values["discard"])
    for card in (*state.queen_zone, *state.discard):
        state.known[card] = everyone
    state.to_give = [sum(BIT[c] for c in read.cards("give", part)) for part in read.per_seat("give", values["give"])]
    gifts = values["gifts"].split(".")
    if len(gifts) != n:
        raise read.fail("gifts", f"expected {n} entries", values["gifts"])
    state.gift_target = [-1 if g == "-" else read.seat("gifts", g) for g in gifts]
    if values["targets"] != "-":
        for item in values["targets"].split("."):
            name, arrow, target = item.partition(">")
            if not arrow:
                raise read.fail("targets", "expected CARD>seat", item)
            state.card_target[parse_card(name, field="targets")] = read.seat("targets", target)
    state.jokers_done = sum(BIT[c] for c in read.cards("jokers", values["jokers"]))
    state.battle_scores = read.ints("scores", values["scores"], n)
    state.provisional_scores = read.ints("prov", values["prov"], n)
    bwin = read.seats("bwin", values["bwin"])
    state.battle_winners = [s for s in range(n) if bwin >> s & 1]
    _check_consistency(state, read)
    return state


def _check_consistency(state: BarrellState, read: _Reader) -> None:
    """Reject positions the rules can never reach in a way that would break the engine."""
    if state.phase in ("play", "swap", "jokers", "kh", "ks") and state.active < 0:
        raise read.fail("active", f"phase {state.phase} needs a seat to act")
    if state.phase == MULLIGAN_PHASE and state.active < 0 and not state.need:
        raise read.fail("need", "a mulligan needs a seat to act or seats to commit")
    if state.phase == "hearts" and state.active < 0 and not state.need & ~state.committed:
        raise read.fail("need", "the hearts commit needs seats still to commit")
    if state.phase == OVER and state.active >= 0:
        raise read.fail("active", "nobody acts in a finished game")
    try:
        state._check_invariants()
    except InvariantError as exc:
        raise InvalidNotationError(str(exc), field="cards") from None
    for card in range(DECK_SIZE):
        if state.known[card] >> state.num_players:
            raise read.fail("cards", f"{NAMES[card]} is known to a seat that does not exist")
