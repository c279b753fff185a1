"""Nutty Squirrels notation: one line that rebuilds any position exactly (hidden cards and RNG included).

Space-separated ``key=value`` fields, in this order::

    nutty:multi players=2               (nutty:solo players=1 for the solo game)
    tree=~2,~BB*1.0,3*2.0,~G,~1/…      six limbs (``-`` when empty), card 1 first;
                                        ``~`` face down; ``*B.G`` acorns lying on the card
    deck=BB,2,…                         the Leaf Deck, top card first (``-`` when empty)
    out=WG,SF  hidden=3,1               out of play face up / never revealed
    box=…  market=…                     solo: cards set aside, powers for sale (``-`` in multiplayer)
    supply=48.15  gone=0.0              brown.golden in the supply / out of play
    p1=T|SW,BP|1.0|g|3.0|0.1|0.0|0.0    position | powers | cheeks | backpack (-,b,g) | nest | burrow |
                                        Sticky Fingers track | Sappy Feet next.now
    multiplayer: turn=CURRENT.AP.FIRST.ROUND (seats from 1)  used=STICKY.SPITTOON (0/1)
                 copy=- or the copied power (! once spent)  end=TRIGGERED.TURNS_LEFT (-1: none)
                 phase=turn|fools|over  win=- or the winning seats
    solo:        solo=ACTIONS_TAKEN  phase=play|fools|bribe|over  result=-|won|lost|ended
    rng=SEED:COUNTER

Card kinds are the codes of ``cards.py``: leaves ``0 1 2 3 G``, events ``BB WG FG SF AR``, powers
``SW FL BP LA ST SR SP DO OW``.

Reading checks the syntax and the ranges here (numbers of at most seven digits; the RNG seed from −2**127
to 2**128 − 1 and its counter below 2**64), then ``consistency.py`` refuses every position the rules
cannot reach; the rules are listed there. Every refusal is an ``InvalidNotationError`` naming the field and
quoting at most 80 characters of it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from oakwood.engine import InvalidNotationError, Rng

from .cards import KIND_ORDER, LIMB_LENGTH, LIMBS, POWERS
from .consistency import check_position
from .tree import STRIDE, TRUNK, TreeState, sort_powers

if TYPE_CHECKING:
    from .game import Nutty

_SLOT = re.compile(r"(~?)([0-3G]|[A-Z]{2})(?:\*(\d{1,6})\.(\d{1,6}))?")
_POS = re.compile(r"L([1-6])c([1-5])")
_PAIR = re.compile(r"(\d{1,6})\.(\d{1,6})")
_INT = re.compile(r"-?\d{1,7}")
#: How much of a bad value an error message quotes (a 10 MB token must not be echoed back).
QUOTE = 80
# Rng bounds (engine/rng.py): the seed and the counter a notation may carry.
SEED_RANGE = (-(2**127), 2**128)
COUNTER_LIMIT = 2**64


def write_slot(kind: str, up: bool, brown: int, golden: int) -> str:
    """One card: ``~`` if face down, its kind, and ``*B.G`` if acorns lie on it."""
    text = ("" if up else "~") + kind
    return text + (f"*{brown}.{golden}" if brown or golden else "")


def write_cards(cards: list[str]) -> str:
    """A list of card kinds (``-`` when empty)."""
    return ",".join(cards) if cards else "-"


def write_position(w: int) -> str:
    """``T`` for the trunk, else ``L<limb>c<card>``."""
    return "T" if w == TRUNK else f"L{w // STRIDE + 1}c{w % STRIDE + 1}"


def write_board(state: TreeState, s: int) -> str:
    """One player's board."""
    parts = [
        write_position(state.where[s]),
        ",".join(state.powers[s]) or "-",
        f"{state.cheeks_b[s]}.{state.cheeks_g[s]}",
        state.pack[s] or "-",
        f"{state.nest_b[s]}.{state.nest_g[s]}",
        f"{state.bur_b[s]}.{state.bur_g[s]}",
        f"{state.stick_b[s]}.{state.stick_g[s]}",
        f"{state.sappy_next[s]}.{state.sappy_now[s]}",
    ]
    return "|".join(parts)


def write_tree(state: Any) -> str:
    """The six limbs, ``/``-separated (``-`` for a limb with no card left)."""
    return "/".join(",".join(write_slot(*slot) for slot in limb) or "-" for limb in state.limbs)


def write(state: Any) -> str:
    """The notation of a multiplayer or solo state."""
    fields = [
        f"nutty:{'solo' if state.solo else 'multi'}",
        f"players={state.num_players}",
        f"tree={write_tree(state)}",
        f"deck={write_cards(state.deck[::-1])}",
        f"out={write_cards(state.out_known)}",
        f"hidden={write_cards(state.out_hidden)}",
        f"box={write_cards(state.box)}",
        f"market={write_cards(state.market)}",
        f"supply={state.supply_b}.{state.supply_g}",
        f"gone={state.gone_b}.{state.gone_g}",
    ]
    fields += [f"p{s + 1}={write_board(state, s)}" for s in range(state.num_players)]
    fields += state.notation_fields()
    fields.append(f"rng={state.rng.seed}:{state.rng.counter}")
    return " ".join(fields)


# ---------------------------------------------------------------------- reading
def bad(message: str, field: str, text: str) -> InvalidNotationError:
    """An :class:`InvalidNotationError` naming the field, quoting at most 80 characters of the bad text."""
    if len(text) > QUOTE:
        text = text[: QUOTE - 3] + "..."
    return InvalidNotationError(message, field=field, text=text)


def read_int(text: str, field: str, low: int = 0, high: int = 9_999_999) -> int:
    """A whole number of at most seven digits, from ``low`` to ``high``."""
    if not _INT.fullmatch(text):
        raise bad("expected a whole number", field, text)
    value = int(text)
    if not low <= value <= high:
        raise bad(f"expected a number from {low} to {high}", field, text)
    return value


def read_pair(text: str, field: str) -> tuple[int, int]:
    """``B.G`` counts."""
    m = _PAIR.fullmatch(text)
    if not m:
        raise bad("expected brown.golden counts like 2.0", field, text)
    return int(m.group(1)), int(m.group(2))


def read_kind(text: str, field: str) -> str:
    """A card kind code."""
    if text not in KIND_ORDER:
        raise bad("unknown card kind", field, text)
    return text


def read_cards(text: str, field: str) -> list[str]:
    """A comma list of card kinds, ``-`` for none."""
    return [] if text == "-" else [read_kind(k, field) for k in text.split(",")]


def read_position(text: str, field: str) -> int:
    """``T`` or ``L<limb>c<card>``."""
    if text == "T":
        return TRUNK
    m = _POS.fullmatch(text)
    if not m:
        raise bad("expected T or a card like L3c2", field, text)
    return (int(m.group(1)) - 1) * STRIDE + int(m.group(2)) - 1


def split_fields(text: str) -> tuple[str, dict[str, str]]:
    """The header and the ``key=value`` fields."""
    tokens = text.split()
    if not tokens:
        raise bad("empty notation", "header", text)
    fields: dict[str, str] = {}
    for token in tokens[1:]:
        key, sep, value = token.partition("=")
        if not sep or not value:
            raise bad("expected key=value", key[:QUOTE] or "field", token)
        if key in fields:
            raise bad("field given twice", key[:QUOTE], token)
        fields[key] = value
    return tokens[0], fields


def need(fields: dict[str, str], key: str) -> str:
    """A required field."""
    if key not in fields:
        raise bad("missing field", key, "")
    return fields.pop(key)


def read(game: Nutty, text: str) -> TreeState:
    """Rebuild a state from its notation; :class:`InvalidNotationError` names the bad field."""
    from .solo import SoloState
    from .state import NuttyState

    header, fields = split_fields(text)
    if header not in ("nutty:multi", "nutty:solo"):
        raise bad("expected nutty:multi or nutty:solo", "header", header)
    solo = header == "nutty:solo"
    players = read_int(need(fields, "players"), "players")
    if (solo and players != 1) or (not solo and not 2 <= players <= 6):
        raise bad("solo has 1 player, multiplayer 2–6", "players", str(players))
    state: TreeState = SoloState(game, 1, 0, start=text) if solo else NuttyState(game, players, 0, start=text)
    _read_tree(state, need(fields, "tree"))
    state.deck = read_cards(need(fields, "deck"), "deck")[::-1]
    state.out_known = read_cards(need(fields, "out"), "out")
    state.out_hidden = read_cards(need(fields, "hidden"), "hidden")
    state.box = read_cards(need(fields, "box"), "box")
    state.market = read_cards(need(fields, "market"), "market")
    state.supply_b, state.supply_g = read_pair(need(fields, "supply"), "supply")
    state.gone_b, state.gone_g = read_pair(need(fields, "gone"), "gone")
    for s in range(players):
        _read_board(state, s, need(fields, f"p{s + 1}"))
    rng_text = fields.pop("rng", None)
    state.read_fields(fields)
    if rng_text is None:
        raise bad("missing field", "rng", "")
    state.rng = _read_rng(rng_text)
    state._seed = state.rng.seed
    if fields:
        key = next(iter(fields))
        raise bad("unknown field", key[:QUOTE], fields[key])
    check_position(state)
    return state


def _read_rng(text: str) -> Rng:
    """``SEED:COUNTER``: a seed from −2**127 to 2**128 − 1 and a counter from 0 to 2**64 − 1."""
    seed_text, sep, counter_text = text.partition(":")
    if not sep or not re.fullmatch(r"-?\d{1,40}", seed_text) or not re.fullmatch(r"\d{1,40}", counter_text):
        raise bad("expected SEED:COUNTER, whole numbers", "rng", text)
    seed, counter = int(seed_text), int(counter_text)
    if not SEED_RANGE[0] <= seed < SEED_RANGE[1] or counter >= COUNTER_LIMIT:
        raise bad("the seed runs from -2**127 to 2**128 - 1 and the counter from 0 to 2**64 - 1", "rng", text)
    try:
        return Rng(seed, counter)
    except ValueError as exc:
        raise bad(f"the generator refuses it ({exc})", "rng", text) from None


def _read_tree(state: TreeState, text: str) -> None:
    limbs = text.split("/")
    if len(limbs) != LIMBS:
        raise bad(f"expected {LIMBS} limbs separated by /", "tree", text)
    for limb, part in enumerate(limbs):
        cards = [] if part == "-" else part.split(",")
        if len(cards) > LIMB_LENGTH or "" in cards:
            raise bad(f"limb {limb + 1} must hold 1 to {LIMB_LENGTH} cards (- when it has none)", "tree", part)
        for token in cards:
            m = _SLOT.fullmatch(token)
            if not m:
                raise bad(f"bad card on limb {limb + 1}", "tree", token)
            kind = read_kind(m.group(2), "tree")
            state.limbs[limb].append((kind, not m.group(1), int(m.group(3) or 0), int(m.group(4) or 0)))


def _read_board(state: TreeState, s: int, text: str) -> None:
    key = f"p{s + 1}"
    parts = text.split("|")
    if len(parts) != 8:
        raise bad("expected 8 parts: at|powers|cheeks|backpack|nest|burrow|sticky|sappy", key, text)
    w = read_position(parts[0], key)
    if w != TRUNK and w % STRIDE >= len(state.limbs[w // STRIDE]):
        raise bad("the squirrel stands on a card that does not exist", key, parts[0])
    state.where[s] = w
    powers = [] if parts[1] == "-" else parts[1].split(",")
    for p in powers:
        if p not in POWERS:
            raise bad("unknown power", key, p)
    if len(powers) > 3 or len(set(powers)) != len(powers):
        raise bad("at most three different powers (NS-5)", key, parts[1])
    state.powers[s] = sort_powers(powers)
    state.cheeks_b[s], state.cheeks_g[s] = read_pair(parts[2], key)
    if state.cheeks_b[s] + state.cheeks_g[s] > 2:
        raise bad("the cheeks hold at most two acorns", key, parts[2])
    if parts[3] not in ("-", "b", "g"):
        raise bad("backpack must be -, b or g", key, parts[3])
    state.pack[s] = "" if parts[3] == "-" else parts[3]
    state.nest_b[s], state.nest_g[s] = read_pair(parts[4], key)
    state.bur_b[s], state.bur_g[s] = read_pair(parts[5], key)
    state.stick_b[s], state.stick_g[s] = read_pair(parts[6], key)
    state.sappy_next[s], state.sappy_now[s] = read_pair(parts[7], key)
