"""S'Quarrels: how a match ends (when Winter came), how long it ran, and which cards went with winning.

Everything is read from the event log of a finished match in one pass (rules.md is the source of truth):

- **Winter.** A round ends only when someone draws Winter (SQ-15). How far into the Deck it came is the
  number of cards drawn from the Deck in the round before Winter (``draw`` and ``draw_action`` events)
  over the Deck's size once the deal was done: 120 cards (119 once a Golden is lost for the match, SQ-7)
  less seven per hand, less the Action cards set aside in the deal that went to Discard (``round_start``:
  ``set_aside`` minus ``to_deck``, SQ-2). The deciding round's share sorts the match into thirds.
- **The Golden and the Rotten Acorn at Winter.** The deal is not in the log, so who holds a Special card is
  followed through the events that name it (a draw, a discard, a Quarrel play, a Quarrel won, a Hoard Pile
  won, an Ambush) and settled at ``round_end`` by the round score: a round score is the stored sets
  (``store`` events) plus 5 for the Golden and minus 5 for the Rotten (SQ-16), so a difference of +5 or -5
  names the holder. Only a hand holding both (a difference of 0) needs the followed location; when neither
  card was named since the deal or the last Whirlwind, "both in one hand" and "neither held" cannot be
  told apart and the extractor says neither (rare: it needs both cards dealt or whirled into one hand and
  never moved; 1 round in 769 over 150 heuristic matches). In that case the last round is read exactly from
  the final hands (``observe``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from oakwood.engine import Game, State

from ..quality import QUALITY_NUMBERS
from .base import FeatureExtractor, GameFeatures

_DECK_SIZE = 120
_HAND = 7  # cards dealt to each player (rules.md "A round", 1)
_BONUS = 5  # the Golden scores +5, the Rotten -5 (SQ-16)
_ACTIONS = ("quarrel", "hoard", "ambush", "whirlwind")

# Where a Special card is, as far as the events tell (a seat number >= 0: in that seat's hand).
_UNSEEN = -1  # not named since the deal or the last Whirlwind: in the Deck or in some hand
_SOME_HAND = -2  # in a hand, whose is not known (a Whirlwind mixed it)
_OUT = -3  # in Discard or in a Storage Pile: out of every hand for the round
_HOARD = -4  # in the Hoard Pile
_POT = -5  # played in the Quarrel being fought

_GOLDEN, _ROTTEN = 0, 1
_SPECIAL = {"golden": _GOLDEN, "rotten": _ROTTEN}


class SquarrelsFeatures:
    """The features of a S'Quarrels match (see the module docstring for how each is found)."""

    game = "squarrels"
    version = 3  # 3: the game-quality numbers (measure.py adds them from the replay)

    endings: Mapping[str, str] = MappingProxyType(
        {
            "winter_early": "Winter ended the deciding round in the first third of the Deck",
            "winter_middle": "Winter ended the deciding round in the middle third of the Deck",
            "winter_late": "Winter ended the deciding round in the last third of the Deck",
        }
    )

    numbers: Mapping[str, str] = MappingProxyType(
        {
            "rounds": "rounds played (each ends with Winter)",
            "winter_share_mean": "share of the Deck drawn before Winter, mean over the rounds (0 = Winter came first)",
            "winter_share_last_round": "share of the Deck drawn before Winter in the deciding round",
            "extra_rounds": "rounds played because the highest totals were tied at the target score (SQ-18)",
            "winning_margin": "winner's total minus the best other total (points; 0 for a shared win)",
            "shared_win": "1 when the win is shared (single round or target_tie = shared_win), else 0",
            **QUALITY_NUMBERS,  # measure.py adds these from the replay's trace (standings: match totals)
        }
    )

    seat_facts: Mapping[str, str] = MappingProxyType(
        {
            "played_first": "took the first turn of the match (sat left of the first dealer, chosen at random)",
            "golden_at_winter": "held the Golden Acorn at Winter (in at least one round)",
            "golden_at_winter_last_round": "held the Golden Acorn at Winter in the last round",
            "rotten_at_winter": "held the Rotten Acorn at Winter (in at least one round)",
            "rotten_at_winter_last_round": "held the Rotten Acorn at Winter in the last round",
            "played_golden": "played the Golden Acorn in a Quarrel (at least once)",
            "drew_quarrel": "drew a Quarrel (at least once)",
            "drew_hoard": "drew a Hoard (at least once)",
            "drew_ambush": "drew an Ambush (at least once)",
            "drew_whirlwind": "drew a Whirlwind (at least once)",
            "drew_winter": "drew Winter, ending a round (at least once)",
            "drew_winter_last_round": "drew the Winter that ended the match",
            "won_quarrel": "won a Quarrel (at least once)",
            "won_hoard_race": "won the race for the Hoard Pile (at least once; automatic with 2 players)",
            "lost_card_to_ambush": "lost a card to another player's Ambush (at least once)",
            "stored_most_sets": "stored the most sets over the match (ties: every tied seat)",
            "won_first_round": "scored the most in the first round (ties: every tied seat)",
        }
    )

    def extract(self, game: Game[Any], state: State) -> GameFeatures:
        """The features of ``state``, a finished match replayed with its events."""
        options = game.options
        n = state.num_players
        per_card = getattr(options, "set_scoring", "face_value") == "per_card"
        golden_lost_for_match = getattr(options, "golden_lost_scope", "round") == "match"
        single_round = bool(getattr(options, "single_round", False))
        target = float(getattr(options, "target_score", 50))
        full_deck = sum(getattr(options, "cards", ())) or _DECK_SIZE  # the game's deck_composition (SQ-26)

        facts = {key: [0.0] * n for key in self.seat_facts}
        drew = {name: facts[f"drew_{name}"] for name in (*_ACTIONS, "winter")}
        sets_stored = [0] * n
        stored_points = [0] * n  # this round's stored sets, as the round score counts them
        where = [_UNSEEN, _UNSEEN]  # the Golden's and the Rotten's location (see the constants)
        pot_owner = [-1, -1]  # who played a Special card into the current Quarrel
        golden_gone = False  # a played Golden lost for the rest of the match (golden_lost_scope = match)
        rounds = 0
        extra_rounds = 0
        deck_size = 0  # the Deck once the round's deal is done
        round_dealt = False  # whether this round's deal is in the log (not in a match set up from a position)
        last_round_dealt = False
        drawn = 0  # cards drawn from the Deck this round before Winter
        winter_drawer = -1
        shares: list[float] = []
        holders: list[tuple[int, int]] = []  # per round: who held the Golden / the Rotten at Winter (-1: nobody)
        last_certain = True  # whether the last round's holders are certain from the events alone
        first_round_scores: list[int] = []
        totals: list[float] = []

        for event in state.events:
            kind = event.kind
            if kind == "draw":
                drawn += 1
                private = event.private
                if private is not None and private["card"] in _SPECIAL:
                    where[_SPECIAL[private["card"]]] = event.public["seat"]
            elif kind == "discard":
                private = event.private
                if private is not None and private["card"] in _SPECIAL:
                    where[_SPECIAL[private["card"]]] = _HOARD
            elif kind == "store":
                public = event.public
                seat = public["seat"]
                sets_stored[seat] += 1
                stored_points[seat] += public["value"] * (3 if per_card else 1)
                if public["with_golden"]:
                    where[_GOLDEN] = _OUT
            elif kind == "quarrel_commit":
                private = event.private
                if private is not None and private["card"] in _SPECIAL:
                    card = _SPECIAL[private["card"]]
                    where[card] = _POT
                    pot_owner[card] = event.public["seat"]
                    if card == _GOLDEN:
                        facts["played_golden"][event.public["seat"]] = 1.0
            elif kind == "draw_action":
                seat = event.public["seat"]
                card_name = event.public["card"]
                drew[card_name][seat] = 1.0
                if card_name == "winter":
                    winter_drawer = seat
                else:
                    drawn += 1
            elif kind == "quarrel_won":
                public = event.public
                winner = public["seat"]
                facts["won_quarrel"][winner] = 1.0
                for name, card in _SPECIAL.items():
                    if where[card] == _POT:
                        where[card] = winner if name in public["cards"] else _OUT
                if public["golden_to_discard"] and golden_lost_for_match:
                    golden_gone = True
            elif kind == "quarrel_drawn":
                for card in (_GOLDEN, _ROTTEN):
                    if where[card] == _POT:
                        where[card] = pot_owner[card]
            elif kind == "ambush":
                victim = event.public["victim"]
                facts["lost_card_to_ambush"][victim] = 1.0
                private = event.private
                if private is not None and private["card"] in _SPECIAL:
                    where[_SPECIAL[private["card"]]] = event.public["seat"]
            elif kind == "hoard_won":
                winner = event.public["seat"]
                facts["won_hoard_race"][winner] = 1.0
                for card in (_GOLDEN, _ROTTEN):
                    if where[card] == _HOARD:
                        where[card] = winner
            elif kind == "whirlwind":
                for card in (_GOLDEN, _ROTTEN):
                    if where[card] >= 0 or where[card] == _SOME_HAND:
                        where[card] = _SOME_HAND
            elif kind == "round_start":
                public = event.public
                deck = full_deck - (1 if golden_gone else 0)
                deck_size = deck - _HAND * n - (len(public["set_aside"]) - len(public["to_deck"]))
                drawn = 0
                winter_drawer = -1
                round_dealt = True
                stored_points = [0] * n
                where = [_OUT if golden_gone else _UNSEEN, _UNSEEN]
            elif kind == "round_end":
                public = event.public
                rounds += 1
                scores = public["scores"]
                if rounds == 1:
                    first_round_scores = list(scores)
                last_round_dealt = round_dealt
                shares.append(drawn / deck_size if round_dealt else 0.0)
                round_dealt = False
                golden_holder, rotten_holder, last_certain = _holders_at_winter(scores, stored_points, where)
                holders.append((golden_holder, rotten_holder))
                totals = [float(t) for t in public["totals"]]
                if not single_round and max(totals) >= target:
                    extra_rounds += 1  # counted for every round reaching the target; the last is taken off below
            elif kind == "match_start":
                facts["played_first"][(event.public["dealer"] + 1) % n] = 1.0  # turns start left of the dealer
            elif kind == "match_end":
                totals = [float(t) for t in event.public["totals"]]

        # The last round exactly, from the final hands when the events leave a doubt (the match is over:
        # every hand may be read). Without the round's deal in the log the stored sets are unknown too.
        if holders and (not last_certain or not last_round_dealt):
            golden_holder = rotten_holder = -1
            for seat in range(n):
                view = state.observe(seat)
                hand = view["hand"]
                if "golden" in hand:
                    golden_holder = seat
                if "rotten" in hand:
                    rotten_holder = seat
            holders[-1] = (golden_holder, rotten_holder)
            if not last_round_dealt:  # no deal in the log: the Deck was what was drawn, Winter and what is left
                shares[-1] = drawn / (drawn + 1 + view["deck_size"])
        if winter_drawer >= 0:
            facts["drew_winter_last_round"][winter_drawer] = 1.0
        for golden_holder, rotten_holder in holders:
            if golden_holder >= 0:
                facts["golden_at_winter"][golden_holder] = 1.0
            if rotten_holder >= 0:
                facts["rotten_at_winter"][rotten_holder] = 1.0
        if holders:
            golden_holder, rotten_holder = holders[-1]
            if golden_holder >= 0:
                facts["golden_at_winter_last_round"][golden_holder] = 1.0
            if rotten_holder >= 0:
                facts["rotten_at_winter_last_round"][rotten_holder] = 1.0
        most = max(sets_stored, default=0)
        if most > 0:
            for seat in range(n):
                if sets_stored[seat] == most:
                    facts["stored_most_sets"][seat] = 1.0
        if first_round_scores:
            best = max(first_round_scores)
            for seat in range(n):
                if first_round_scores[seat] == best:
                    facts["won_first_round"][seat] = 1.0

        winners = state.winners()
        if not totals:
            totals = [float(s) for s in state.scores()]
        others = [totals[s] for s in range(n) if s not in winners]
        margin = max(totals[s] for s in winners) - max(others) if winners and others else 0.0
        last_share = shares[-1] if shares else 0.0
        if last_share < 1 / 3:
            ending = "winter_early"
        elif last_share < 2 / 3:
            ending = "winter_middle"
        else:
            ending = "winter_late"
        numbers = {
            "rounds": float(rounds),
            "winter_share_mean": sum(shares) / len(shares) if shares else 0.0,
            "winter_share_last_round": last_share,
            "extra_rounds": float(max(extra_rounds - 1, 0)),
            "winning_margin": float(margin) if len(winners) == 1 else 0.0,
            "shared_win": 1.0 if len(winners) > 1 else 0.0,
        }
        # Turns go clockwise (up the seat numbers) from the first dealer's left (SQ-19); a match set up from a
        # position has no first deal in its log, so no order.
        first = facts["played_first"].index(1.0) if 1.0 in facts["played_first"] else None
        order = [(seat - first) % n for seat in range(n)] if first is not None else []
        return GameFeatures(ending=ending, numbers=numbers, seat_facts=facts, order=order)


def _holders_at_winter(scores: list[int], stored_points: list[int], where: list[int]) -> tuple[int, int, bool]:
    """Who held the Golden and the Rotten when Winter came (-1: nobody), from the round scores and the
    followed locations, and whether that is certain.

    A seat's round score less its stored sets is +5 (the Golden alone), -5 (the Rotten alone) or 0 (neither,
    or both). With no +5 and no -5 anywhere, either neither card is in a hand or both are in one hand: a seat
    known to hold one of them holds both; a card known to be out of every hand means neither is held; a card
    known only to be in some hand (after a Whirlwind) means both are in one hand nobody can name; and two
    cards never named since the deal may be in the Deck or together in one hand. The last two cases are
    answered "neither", uncertain.
    """
    golden = rotten = -1
    for seat, score in enumerate(scores):
        rest = score - stored_points[seat]
        if rest == _BONUS:
            golden = seat
        elif rest == -_BONUS:
            rotten = seat
    if golden >= 0 or rotten >= 0:
        return golden, rotten, True  # a lone Special card means the other is in no hand
    known = where[_GOLDEN] if where[_GOLDEN] >= 0 else where[_ROTTEN]
    if known >= 0:
        return known, known, True
    out_of_hands = where[_GOLDEN] in (_OUT, _HOARD) or where[_ROTTEN] in (_OUT, _HOARD)
    return -1, -1, out_of_hands


EXTRACTOR: FeatureExtractor = SquarrelsFeatures()
