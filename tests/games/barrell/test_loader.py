"""The Barrell loader refuses every position the game cannot reach, naming the field at fault (issue 8;
the rules C1–N4 are listed in ``consistency.py``). Each case is a real position that loads, then the same
position with one field changed, which must be refused with ``InvalidNotationError`` naming that field."""

from __future__ import annotations

import re
from typing import Any

import pytest

import oakwood
from oakwood.engine import InvalidNotationError, Rng
from oakwood.games.barrell.cards import NAMES

from .helpers import position

SIMULTANEOUS = {"mulligan_mode": "simultaneous"}
SEAT_ORDER = {"heart_gift_timing": "seat_order"}
SPLIT = {"heart_gift": "split_per_card"}

# Real positions the cases start from.
PLAY = position(hands=["2C.3C", "4D"], fields=["9S", "5D"])
PLAY3 = position(3, hands=["2C.3C", "4D", "5H"], fields=["9S", "5D", "6C"])
MULLIGAN = position(3, hands=["2C.3C", "4D", "5H"], phase="mulligan")
MULLIGAN_SIMULTANEOUS = position(3, hands=["2C.3C", "4D", "5H"], phase="mulligan", active="-", need="123")
OVER = position(hands=["2C", "4D"], phase="over", active="-", passed="12", battle=2, wins="2.0", scores="5.0", bwin="1")
HEARTS = position(
    3,
    hands=["2C", "3C", "4C"],
    fields=["^4H.^10S", "^2H.^10C", "^10D"],
    phase="hearts",
    active="-",
    passed="123",
    need="12",
    give=["4H", "2H", ""],
)
KING_OF_HEARTS = position(
    hands=["2C", "3C"],
    fields=["^KH.^9S.^6S", "^4D"],
    phase="kh",
    passed="12",
    wins="1.0",
    scores="15.4",
    bwin="1",
)
KING_OF_SPADES = position(
    hands=["2C", "3C"], discard="KS.9S.4D", phase="ks", passed="12", wins="1.0", scores="9.4", bwin="1"
)
JOKERS = position(hands=["2C", "3C"], fields=["^RJ.^9S", "^6D"], phase="jokers", passed="12")
SWAP = position(3, hands=["2C", "3C", "4C"], fields=["5S.^JS", "6S", "7S"], phase="swap")
#: P1 played the J♠ as its first card: with 2 players the (empty) fields traded at once.
TRADED = position(hands=["2C", "3C"], fields=["", "^JS"], active="2")
JACK_OF_DIAMONDS = position(hands=["2C", "3C"], fields=["9S.^JD", "QS"], active="2", jd="1", jdc="9S.QS")


def case(name: str, real: str, old: str, new: str, field: str, **options: Any) -> Any:
    """A real position, the change that makes it unreachable, and the field the error must name."""
    return pytest.param(options, real, old, new, field, id=name)


def changed(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` replaced by ``new``; cards now named elsewhere leave the Deck, and cards named
    nowhere any more go to its bottom (as in ``helpers.position``)."""
    assert old in text
    text = text.replace(old, new, 1)
    values = dict(token.split("=", 1) for token in text.split()[1:])
    elsewhere = set(CARD.findall(" ".join(values[k] for k in ("hands", "aside", "fields", "queen", "discard"))))
    deck = [c for c in values["deck"].split(".") if c and c not in elsewhere]
    missing = [c for c in NAMES if c not in elsewhere and c not in deck]
    return text.replace(f" deck={values['deck']} ", f" deck={'.'.join(missing + deck)} ")


CARD = re.compile(r"(?:10|[2-9AJQK])[CDHS]|RJ|BJ")
TIED_KING_OF_SPADES = changed(
    changed(changed(KING_OF_SPADES, "wins=1.0", "wins=0.0"), "scores=9.4", "scores=4.4"), "bwin=1", "bwin=-"
).replace("drawn=0", "drawn=1")

CASES = [
    # The cases issue 8 found accepted.
    case("simultaneous mulligan with an active seat (livelock)", MULLIGAN_SIMULTANEOUS, "active=-", "active=3",
         "active", **SIMULTANEOUS),
    case("finished game with a seat to act", OVER, "active=-", "active=1", "active"),
    # C1–C3 cards and knowledge
    case("a card named twice in one hand", PLAY, "hands=2C.3C|", "hands=2C.2C.3C|", "hands"),
    case("a hand card hidden from its holder", PLAY, "hands=2C.3C|", "hands=2C~2.3C|", "hands"),
    case("a face-down card known to nobody", PLAY, "fields=9S|", "fields=9S~-|", "fields"),
    case("a face-down card known to another seat without a trade", PLAY, "fields=9S|", "fields=9S~2|", "fields"),
    case("a face-down card known to a seat the trade did not involve",
         position(3, hands=["2C", "3C", "4C"], fields=["5S~2", "6S~1.^JS", "7S"], active="3", first=3),
         "7S ", "7S~1 ", "fields"),
    case("a Jack face down", PLAY, "fields=9S|", "fields=JS|", "fields"),
    # Z1–Z4 zones per phase
    case("cards set aside outside the mulligan", PLAY, "aside=|", "aside=|6H", "aside"),
    case("a field card during the mulligan", MULLIGAN, "fields=||", "fields=||6S", "fields"),
    case("a face-up card other than a Jack during play", PLAY, "fields=9S|", "fields=^9S|", "fields"),
    case("a face-down card after the reveal", JOKERS, "^6D", "6D", "fields"),
    case("the Queen Zone during play", PLAY, "queen=", "queen=QS", "queen"),
    case("a King in the Queen Zone", KING_OF_HEARTS, "queen=", "queen=KS", "queen"),
    case("a Queen left in a field after E4", KING_OF_HEARTS, "^4D", "^4D.^QS", "fields"),
    case("a Discard pile during a battle under every_battle", PLAY, "discard=", "discard=7H", "discard",
         discard_recycle="every_battle"),
    # A1–A3 mulligan and play
    case("sequential mulligan: a seat before the active one not done",
         MULLIGAN.replace("active=1", "active=2").replace("committed=-", "committed=1"),
         "committed=1", "committed=-", "committed"),
    case("sequential mulligan: cards set aside by a waiting seat", MULLIGAN, "aside=||", "aside=||6H", "aside"),
    case("sequential mulligan: more set aside than allowed", changed(MULLIGAN, "aside=||", "aside=6H||"),
         "aside=6H||", "aside=6H.7H.8H||", "aside"),
    case("simultaneous mulligan: need is not the seats holding cards", MULLIGAN_SIMULTANEOUS, "need=123",
         "need=12", "need", **SIMULTANEOUS),
    case("simultaneous mulligan: everybody done but not resolved", MULLIGAN_SIMULTANEOUS, "committed=-",
         "committed=123", "committed", **SIMULTANEOUS),
    case("a pass before the battle", MULLIGAN, "passed=-", "passed=2", "passed"),
    case("the active seat has passed", PLAY, "passed=-", "passed=1", "active"),
    case("the active seat holds no card", PLAY, "hands=2C.3C|", "hands=|", "active"),
    case("field sizes against the turn order", PLAY, "fields=9S|5D", "fields=9S.8S|5D", "fields"),
    case("a seat passed after more turns than it had", PLAY3, "passed=-", "passed=3", "passed"),
    case("a J♣ in effect during play", PLAY, "fields=9S|5D", "fields=9S|^JC", "fields"),
    # A4–A8 decisions
    case("a J♠ choice with 2 players", TRADED, "phase=play", "phase=swap", "phase"),
    case("a J♠ choice without the J♠ just played", SWAP, "5S.^JS", "^JS.5S", "fields"),
    case("a J♠ choice: field sizes against the turn order", SWAP, "|6S|", "|6S.8S|", "fields"),
    case("a Joker decision for a seat without a Joker", JOKERS, "active=1", "active=2", "active"),
    case("a Joker decision out of seat order", JOKERS.replace("first=1", "first=2"), "^6D", "^6D.^BJ", "active"),
    case("hearts with 2 players (the only opponent receives them at once)", JOKERS, JOKERS,
         changed(JOKERS, "^RJ.^9S", "^4H.^9S").replace("phase=jokers active=1", "phase=hearts active=-")
         .replace("need=-", "need=1").replace("give=|", "give=4H|"), "phase"),
    case("hearts: a heart in a field not listed in give", HEARTS, "^10D", "^10D.^3H", "give"),
    case("hearts: need is not the seats with hearts", HEARTS, "need=12", "need=123", "need"),
    case("hearts: a recipient for a seat still choosing", HEARTS, "gifts=-.-.-", "gifts=2.-.-", "gifts"),
    case("hearts: a seat giving to itself",
         HEARTS.replace("committed=-", "committed=1").replace("gifts=-.", "gifts=2."), "gifts=2.", "gifts=1.",
         "gifts"),
    case("hearts: per-card recipients under one_opponent", HEARTS, "targets=-", "targets=4H>2", "targets"),
    case("hearts: simultaneous gifts with an active seat", HEARTS, "active=-", "active=1", "active"),
    case("hearts in seat order: not the next giver", HEARTS.replace("active=-", "active=1"), "active=1",
         "active=2", "active", **SEAT_ORDER),
    case("hearts per card: a seat done without naming every recipient", HEARTS, "committed=-", "committed=1",
         "targets", **SPLIT),
    case("King of Hearts: the K♥ is not in the active seat's field", KING_OF_HEARTS, "active=1", "active=2",
         "active"),
    case("King of Hearts after scoring: scores not the table's", KING_OF_HEARTS, "scores=15.4", "scores=16.4",
         "scores"),
    case("King of Spades: the K♠ is not in the Discard pile", KING_OF_SPADES, "discard=KS.9S.4D",
         "discard=9S.4D", "discard"),
    # A9–A10 bookkeeping of commits and how the battle ended
    case("a commit open during play", PLAY, "need=-", "need=1", "need"),
    case("hearts to give during play", PLAY, "give=|", "give=7H|", "give"),
    case("seats done after the hearts that had none to give", KING_OF_HEARTS, "committed=-", "committed=1",
         "committed"),
    case("the battle ended with a seat unpassed, yet the J♣ lies in the Discard",
         changed(JOKERS, "discard=", "discard=JC"), "passed=12", "passed=2", "passed"),
    # M1–M3 marks
    case("jd=1 with no J♦ on the table", PLAY, "jd=0", "jd=1", "jd"),
    case("jdc without the J♦ in force", PLAY, "jdc=-", "jdc=9S", "jdc"),
    case("jdc not the cards first on the table", JACK_OF_DIAMONDS, "jdc=9S.QS", "jdc=QS", "jdc"),
    case("a later Jack not cancelled under rest_of_battle", JACK_OF_DIAMONDS, "fields=9S.^JD|QS",
         "fields=9S.^JD|QS.^JH", "jvoid"),
    case("a non-Jack cancelled", JACK_OF_DIAMONDS, "jvoid=-", "jvoid=9S", "jvoid"),
    case("a decided Joker during play", PLAY, "jokers=-", "jokers=RJ", "jokers"),
    case("provisional scores under at_reveal", JOKERS, "prov=-", "prov=3.4", "prov"),
    case("a card the J♦ found is back in the Deck",
         changed(JOKERS, "^6D", "^6D.^JD").replace("jd=0", "jd=1"), "jdc=-", "jdc=2S", "deck"),
    case("the J♣ that ended the battle is back in the Deck", JOKERS, "passed=12", "passed=2", "deck"),
    # N1–N4 counters
    case("battle 0", PLAY, "battle=1", "battle=0", "battle"),
    case("no scores after a completed battle", KING_OF_SPADES, "scores=9.4", "scores=-", "scores"),
    case("battle winners its scores do not give", KING_OF_SPADES, "bwin=1", "bwin=2", "bwin"),
    case("no drawn streak after a tied battle", TIED_KING_OF_SPADES, "drawn=1", "drawn=0", "drawn"),
    case("more wins than battles", PLAY, "wins=0.0", "wins=1.0", "wins"),
    case("a running game with a sole two-win leader", KING_OF_SPADES.replace("battle=1", "battle=2"),
         "wins=1.0", "wins=2.0", "wins"),
    case("a running game at the drawn-battle limit", TIED_KING_OF_SPADES.replace("battle=1", "battle=2"),
         "drawn=1", "drawn=2", "drawn",
         max_consecutive_drawn_battles=2),
    case("a finished game nobody won, with cards in hand", OVER, "wins=2.0", "wins=1.0", "phase"),
    # Reading
    case("a seat named twice", PLAY, "passed=-", "passed=22", "passed"),
    case("a number with a sign", PLAY, "battle=1", "battle=+1", "battle"),
    case("a card named twice in targets", HEARTS, "targets=-", "targets=4H>2.4H>3", "targets", **SPLIT),
    case("knowledge marker without seats", PLAY, "hands=2C.3C|", "hands=2C~.3C|", "hands"),
]  # fmt: skip


@pytest.mark.parametrize(("options", "real", "old", "new", "field"), CASES)
def test_loader_refuses_what_the_game_cannot_reach(
    options: dict[str, Any], real: str, old: str, new: str, field: str
) -> None:
    game = oakwood.load("barrell", **options)
    game.from_notation(real)  # the position before the change is real
    with pytest.raises(InvalidNotationError, match=re.escape(f"(in '{field}')")):
        game.from_notation(changed(real, old, new))


def test_every_card_must_lie_somewhere() -> None:
    with pytest.raises(InvalidNotationError, match=re.escape("missing (in 'deck'): '5D'")):
        oakwood.load("barrell").from_notation(PLAY.replace("fields=9S|5D", "fields=9S|"))


@pytest.mark.parametrize(
    ("rng", "why"),
    [
        (f"1:{2**70}", "between 0 and"),  # a counter the generator cannot pack
        (f"{2**130}:0", "between"),
        ("9" * 4400 + ":0", "expected a whole number"),  # more digits than int() converts
        ("1:-1", "between 0 and"),
    ],
)
def test_rng_out_of_range_names_the_rng_field(rng: str, why: str) -> None:
    text = PLAY.replace("rng=7:0", f"rng={rng}")
    with pytest.raises(InvalidNotationError, match=re.escape("(in 'rng')")) as caught:
        oakwood.load("barrell").from_notation(text)
    assert why in str(caught.value) and len(str(caught.value)) < 250


def test_errors_quote_at_most_80_characters_of_a_bad_value() -> None:
    huge = "Z" * 10_000_000
    texts = (PLAY.replace("hands=2C.3C|", f"hands={huge}|"), f"{PLAY} x{huge}=1", PLAY.replace("battle=1", huge))
    for text in texts:
        with pytest.raises(InvalidNotationError) as caught:
            oakwood.load("barrell").from_notation(text)
        assert len(str(caught.value)) < 250


def test_every_position_of_random_games_loads() -> None:
    """The other side of the trust boundary: positions the game reaches are never refused (2–4 players, the
    default rules and every variant, including simultaneous mulligans and heart commits)."""
    variants: list[dict[str, Any]] = [
        {},
        {**SIMULTANEOUS, **SPLIT, "jos_initiator_may_look": True, "joker_timing": "after_provisional_score",
         "kh_timing": "before_scoring", "jod_scope": "cards_on_table_only", "battle_tie": "all_tied_win",
         "discard_recycle": "every_battle", "kh_given_with_hearts": True},
        {**SEAT_ORDER, "jos_mode": "rotate_all", "max_consecutive_drawn_battles": 1},
    ]  # fmt: skip
    loaded = 0
    for options in variants:
        game = oakwood.load("barrell", **options)
        for players in (2, 3, 4):
            for seed in range(4):
                state = game.new_state(players, seed)
                rng = Rng(seed)
                while True:
                    text = state.to_notation()
                    assert game.from_notation(text).to_notation() == text
                    loaded += 1
                    if state.is_terminal():
                        break
                    seat = rng.choice(state.to_act())
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert loaded > 1000
