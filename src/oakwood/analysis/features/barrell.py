"""Barrell's measures: how a game ends (battles needed, BR-15's guard) and which face cards went with winning.

Everything is read from one pass over the finished game's events (``rules.md`` names each one):

- ``battle`` / ``first_player`` / ``mulligan`` / ``recycle``: the battles played, who played first (the dice),
  who used the mulligan, how often the Discard pile went back into the Deck.
- ``play``: who played which card. Face-down cards carry their name in the private part, which the analyst
  may read once the game is over; the player is the seat that played it, wherever a J♠ trade put it later.
- ``cancelled`` / the Jack of Diamonds' ``play``: which face cards the J♦ cancelled (BR-11).
- ``reveal`` → ``joker`` → ``gift`` → ``queen_zone`` → ``destroy`` → (``return``, under ``kh_timing =
  before_scoring``) → ``battle_result``: the fields followed from E1 to scoring (E5), so the extractor knows
  who controlled an active King of Clubs and whose Aces counted 11 (BR-10, BR-13).
- ``battle_result`` / ``game_over``: battle winners, drawn battles and why the game ended.

The extractor never imports the game's modules: it knows the deck only by the card names of the events.
"""

from __future__ import annotations

from typing import Any, Final

from oakwood.analysis.features.base import GameFeatures
from oakwood.analysis.quality import QUALITY_NUMBERS
from oakwood.engine import Game, State

#: The face cards by name (J, Q, K of each suit, BR-11, BR-7/BR-8, BR-9/BR-10) and the fact each one feeds.
FACE_CARD_FACTS: Final = {
    "JC": "played_jack_of_clubs",
    "JH": "played_jack_of_hearts",
    "JS": "played_jack_of_spades",
    "JD": "played_jack_of_diamonds",
    "QC": "played_queen_of_clubs",
    "QH": "played_queen_of_hearts",
    "QS": "played_queen_of_spades",
    "QD": "played_queen_of_diamonds",
    "KC": "played_king_of_clubs",
    "KH": "played_king_of_hearts",
    "KS": "played_king_of_spades",
    "KD": "played_king_of_diamonds",
}
JOKERS: Final = frozenset({"RJ", "BJ"})
_QUEENS_AND_KINGS: Final = frozenset(name for name in FACE_CARD_FACTS if name[0] in "QK")

_SUIT_NAMES: Final = {"C": "Clubs", "H": "Hearts", "S": "Spades", "D": "Diamonds"}
_RANK_NAMES: Final = {"J": "Jack", "Q": "Queen", "K": "King"}
_POWERS: Final = {
    "JC": "ends the battle at once",
    "JH": "draws 2 cards",
    "JS": "trades fields",
    "JD": "cancels the other face cards",
    "QC": "sets the clubs to 1",
    "QH": "sets the hearts to 1",
    "QS": "sets the spades to 1",
    "QD": "sets the diamonds to 1",
    "KC": "doubles its field's total",
    "KH": "returns a card to hand",
    "KS": "takes a card from Discard",
    "KD": "destroys the highest cards",
}


def _face_card_phrase(name: str) -> str:
    rank, suit = name[0], name[1]
    return f"played the {_RANK_NAMES[rank]} of {_SUIT_NAMES[suit]} ({_POWERS[name]}) in at least one battle"


def _is_face(name: str) -> bool:
    return name[0] in "JQK"


def _suit(name: str) -> str:
    return name[-1]


class BarrellFeatures:
    """Barrell's endings, battle counts and per-seat card facts (see the module docstring)."""

    game = "barrell"
    version = 3  # 3: the game-quality numbers (measure.py adds them from the replay)

    endings: Final = {
        "won_two_nil": "won 2–0: a player won 2 battles before any opponent won one",
        "won_two_one": "won 2–1: the opponents had won 1 battle between them (a deciding battle)",
        "won_two_one_one": "won 2 battles after the opponents had won 2 or more between them "
        "(2–1–1 with 3–4 players, or a decider after a shared tie)",
        "drawn_battles_limit": "ended by BR-15's guard: too many battles in a row without a sole winner "
        "(most wins wins, equal wins share)",
        "no_cards_left": "ended by BR-15: nobody held a card (most wins wins, equal wins share)",
    }
    numbers: Final = {
        "battles": "battles played",
        "drawn_battles": "battles without a sole winner (ties, BR-14)",
        "jack_of_clubs_endings": "battles ended at once by the Jack of Clubs",
        "recycles": "times the Discard pile was shuffled into the Deck",
        "winners": "players sharing the win (1 unless BR-15 ended the game on equal wins)",
        **QUALITY_NUMBERS,  # measure.py adds these from the replay's trace (standings: battles won)
    }
    seat_facts: Final = {
        "went_first": "played first in the first battle (highest die)",
        "won_first_battle": "won the first battle",
        "used_mulligan": "set cards aside in at least one mulligan",
        **{fact: _face_card_phrase(name) for name, fact in FACE_CARD_FACTS.items()},
        "doubled_with_king_of_clubs": "held an active King of Clubs in its field at scoring in at least one "
        "battle (it doubled that field's total)",
        "played_joker": "played a Joker in at least one battle",
        "scored_ace_as_eleven": "scored a non-heart Ace as 11 in at least one battle "
        "(a J, Q or K of its suit in play, BR-13)",
        "hearts_given": "gave numbered hearts to opponents (BR-5; the value counts them)",
        "hearts_received": "received numbered hearts from opponents (BR-5; the value counts them)",
    }

    def extract(self, game: Game[Any], state: State) -> GameFeatures:
        """The features of the finished, replayed ``state``: one pass over its events."""
        options = game.options
        jod_rest_of_battle = getattr(options, "jod_scope", "rest_of_battle") == "rest_of_battle"
        jod_suppresses_ace_bonus = bool(getattr(options, "jod_suppresses_ace_bonus", False))
        n = state.num_players
        facts: dict[str, list[float]] = {key: [0.0] * n for key in self.seat_facts}
        played_face = {name: facts[fact] for name, fact in FACE_CARD_FACTS.items()}
        played_joker = facts["played_joker"]
        hearts_given = facts["hearts_given"]
        hearts_received = facts["hearts_received"]

        battles = drawn_battles = jack_of_clubs_endings = recycles = 0
        ending = ""
        winners_count = 0
        previous_kind = ""
        # per battle
        played_so_far: set[str] = set()  # cards on the table, for the J♦'s cover (variant cards_on_table_only)
        jd_played = False
        jd_cover: set[str] = set()
        jacks_void: set[str] = set()
        fields: list[list[str]] = []
        queen_zone: list[tuple[str, bool]] = []  # (card, cancelled)

        for event in state.events:
            kind = event.kind
            public = event.public
            if kind == "play":
                card = public["card"] if public["face_up"] else event.private["card"]  # type: ignore[index]
                seat = public["seat"]
                if card in played_face:
                    played_face[card][seat] = 1.0
                    if card == "JD":
                        jd_played = True
                        jd_cover = played_so_far & _QUEENS_AND_KINGS
                elif card in JOKERS:
                    played_joker[seat] = 1.0
                played_so_far.add(card)
            elif kind == "battle":
                battles += 1
                played_so_far = set()
                jd_played = False
                jd_cover = set()
                jacks_void = set()
                fields = []
                queen_zone = []
            elif kind == "first_player":
                if battles == 1:
                    facts["went_first"][public["seat"]] = 1.0
            elif kind == "mulligan":
                if public["count"]:
                    facts["used_mulligan"][public["seat"]] = 1.0
            elif kind == "cancelled":
                jacks_void.add(public["card"])
            elif kind == "battle_ends":
                jack_of_clubs_endings += 1
            elif kind == "reveal":
                fields = [list(field) for field in public["fields"]]
            elif kind == "joker":
                field = fields[public["seat"]]
                if public["choice"] == "keep":
                    field.remove(public["joker"])
                else:
                    fields[public["seat"]] = [public["joker"]]
            elif kind == "gift":
                given = public["cards"]
                for card in given:
                    fields[public["seat"]].remove(card)
                fields[public["target"]].extend(given)
                numbered = sum(1 for card in given if not _is_face(card))  # not a K♥ given with them
                hearts_given[public["seat"]] += numbered
                hearts_received[public["target"]] += numbered
            elif kind == "queen_zone":
                card = public["card"]
                for field in fields:
                    if card in field:
                        field.remove(card)
                        break
                queen_zone.append((card, bool(public["cancelled"])))
            elif kind in ("destroy", "return"):
                # a K♥ return counts here only before scoring (kh_timing = before_scoring); after it, harmless
                field = fields[public["seat"]]
                for card in public["cards"] if kind == "destroy" else (public["card"],):
                    field.remove(card)
            elif kind == "battle_result":
                void = _void(jd_played, jod_rest_of_battle, jd_cover, jacks_void)
                self._score_facts(facts, fields, queen_zone, void, jod_suppresses_ace_bonus)
                winners = public["winners"]
                if len(winners) != 1:
                    drawn_battles += 1
                if battles == 1:
                    for seat in winners:
                        facts["won_first_battle"][seat] = 1.0
            elif kind == "recycle":
                recycles += 1
            elif kind == "game_over":
                ending = _ending(public["wins"], public["winners"], decided_at_scoring=previous_kind == "battle_result")
                winners_count = len(public["winners"])
            previous_kind = kind

        if not ending:
            raise ValueError("barrell features need a finished game replayed with its events (no game_over event)")
        numbers = {
            "battles": float(battles),
            "drawn_battles": float(drawn_battles),
            "jack_of_clubs_endings": float(jack_of_clubs_endings),
            "recycles": float(recycles),
            "winners": float(winners_count),
        }
        # Play goes clockwise (up the seat numbers) from the first battle's first player (BR-3).
        first = facts["went_first"].index(1.0)
        order = [(seat - first) % n for seat in range(n)]
        return GameFeatures(ending=ending, numbers=numbers, seat_facts=facts, order=order)

    @staticmethod
    def _score_facts(
        facts: dict[str, list[float]],
        fields: list[list[str]],
        queen_zone: list[tuple[str, bool]],
        void: set[str],
        jod_suppresses_ace_bonus: bool,
    ) -> None:
        """E5: who holds an active King of Clubs, whose non-heart Aces count 11 (BR-10, BR-13, BR-8)."""
        bonus_suits: set[str] = set()
        for card in (*(c for field in fields for c in field), *(c for c, _ in queen_zone)):
            if _is_face(card) and not (jod_suppresses_ace_bonus and card in void):
                bonus_suits.add(_suit(card))
        # BR-8: an active Queen of its suit in the Queen Zone makes an Ace 1 (the queen_zone event says
        # whether the J♦ cancelled it).
        bonus_suits -= {_suit(card) for card, cancelled in queen_zone if card[0] == "Q" and not cancelled}
        eleven_aces = {"A" + suit for suit in bonus_suits if suit != "H"}
        doubled = facts["doubled_with_king_of_clubs"]
        ace = facts["scored_ace_as_eleven"]
        for seat, field in enumerate(fields):
            if "KC" in field and "KC" not in void:
                doubled[seat] = 1.0
            if eleven_aces and not eleven_aces.isdisjoint(field):
                ace[seat] = 1.0


def _void(jd_played: bool, rest_of_battle: bool, jd_cover: set[str], jacks_void: set[str]) -> set[str]:
    """Face cards the Jack of Diamonds cancelled this battle (BR-11): every Q/K for the rest of the battle, or
    (``jod_scope = cards_on_table_only``) those on the table when it was played; plus the Jacks it voided."""
    if not jd_played:
        return jacks_void
    if rest_of_battle:
        return set(_QUEENS_AND_KINGS) | jacks_void
    return jd_cover | jacks_void


def _ending(wins: list[int], winners: list[int], *, decided_at_scoring: bool) -> str:
    """E11 / BR-15: a sole leader with 2 wins (classified by the opponents' battle wins), else the guard."""
    top = max(wins)
    if decided_at_scoring and len(winners) == 1 and top >= 2 and wins.count(top) == 1:
        others = sum(wins) - top
        return "won_two_nil" if others == 0 else "won_two_one" if others == 1 else "won_two_one_one"
    return "drawn_battles_limit" if decided_at_scoring else "no_cards_left"


EXTRACTOR = BarrellFeatures()
