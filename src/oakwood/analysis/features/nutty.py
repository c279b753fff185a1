"""Nutty Squirrels features: how a game ended (20 points against the end of the tree, or the solo result), its
length in the game's own units, and per seat which powers were held and which events were suffered.

Everything is read in one pass over the event log of the finished game (every Nutty Squirrels event is public);
the card codes are the notation's (rules.md, NS-1), repeated here so the extractor never imports the game.
"""

from __future__ import annotations

from typing import Any

from oakwood.analysis.features.base import GameFeatures
from oakwood.analysis.quality import QUALITY_NUMBERS
from oakwood.engine import Game, State

WIN_POINTS = 20  # NS-15
LEAF_CODES = frozenset(("0", "1", "2", "3", "G"))  # acorn leaves (NS-1)
BROKEN, SAPPY, ARBORIST = "BB", "SF", "AR"

#: power code -> seat fact key (NS-11 … NS-13)
POWER_FACT = {
    "SW": "held_swinging_squirrel",
    "FL": "held_flying_squirrel",
    "BP": "held_backpack",
    "LA": "held_lasso",
    "ST": "held_sticky_fingers",
    "SR": "held_sugar_rush",
    "SP": "held_spittoon",
    "DO": "held_doppelganger",
    "OW": "held_owl",
}

#: ``game_over`` reason -> ending key, solo (NS-17); the multiplayer reasons are sorted out in ``_ending``
SOLO_ENDING = {
    "20 points gathered": "solo_won",
    "the Owl could not be bribed": "solo_lost_owl",
    "nothing left within reach": "solo_nothing_left",
    "the player ended the game": "solo_player_ended",
    "action limit": "solo_action_limit",
}

ENDINGS = {
    "twenty_points": "a squirrel buried 20 points before the tree was fully revealed",
    "twenty_points_final_round": "a squirrel buried 20 points in the final round, after the tree was revealed",
    "tree_revealed": "the tree was fully revealed, the final round played out, and the most points won",
    "round_limit": "the max_rounds safety limit ended the game",
    "solo_won": "solo: won, 20 points gathered",
    "solo_lost_owl": "solo: lost, the Owl could not be bribed",
    "solo_nothing_left": "solo: over short of 20, nothing left within reach",
    "solo_player_ended": "solo: the player ended the game short of 20",
    "solo_action_limit": "solo: the action limit ended the game short of 20",
}

NUMBERS = {
    "rounds": "rounds played (0 in solo)",
    "turns": "turns played (0 in solo)",
    "cards_flipped": "cards flipped by a squirrel (solo: landed on face down)",
    "leaf_cards_flipped": "acorn leaves flipped by a squirrel",
    "cards_revealed_by_arborist": "cards revealed by The Arborist",
    "broken_branches_revealed": "Broken Branches revealed (flipped or by The Arborist)",
    "falls": "falls to the trunk, counted per squirrel (any cause, limb breaks included)",
    "points_lost_in_falls": "points of carried acorns lost to the supply in falls (brown 1, golden 5)",
    "limb_breaks": "limbs broken",
    "powers_taken": "powers claimed from the tree (solo: bought from the market)",
    "tree_revealed": "1 if the last face-down card of the tree was revealed (the end was triggered), else 0",
    "tree_revealed_round": "round in which the tree was fully revealed (0 if never, and in solo)",
    "top_score": "the best score (solo: the score)",
    "margin": "points between the best and the second-best score (0 in solo)",
    "shared_win": "1 if the win was shared by tied squirrels, else 0",
    **QUALITY_NUMBERS,  # measure.py adds these from the replay's trace (standings: buried points)
}

SEAT_FACTS = {
    "first_player": "took the first turn (the first player is drawn at random, NS-2)",
    "held_swinging_squirrel": "held Swinging Squirrel (claimed, stolen or bought)",
    "held_flying_squirrel": "held Flying Squirrel (claimed, stolen or bought)",
    "held_backpack": "held the Backpack (claimed, stolen or bought)",
    "held_lasso": "held The Lasso (claimed, stolen or bought)",
    "held_sticky_fingers": "held Sticky Fingers (claimed or stolen)",
    "held_sugar_rush": "held Sugar Rush (claimed or stolen)",
    "held_spittoon": "held the Spittoon (claimed or stolen)",
    "held_doppelganger": "held the Doppelgänger (claimed or stolen)",
    "held_owl": "held The Owl (claimed or stolen)",
    "fell_from_broken_branch": "fell from a Broken Branch",
    "fell_in_limb_break": "fell because the limb broke beyond a pair of Broken Branches",
    "lost_acorns_in_fall": "lost carried acorns in a fall (any cause)",
    "blown_by_wind_gust": "was blown outward or off the limb by a Wind Gust",
    "lost_golden_to_fools_gold": "gave a golden acorn back for a brown to Fool's Gold",
    "slowed_by_sappy_feet": "revealed Sappy Feet (a next turn with 1 AP less)",
    "revealed_arborist": "revealed The Arborist",
    "scared_by_owl": "was scared off a limb by another squirrel's Owl",
    "lost_power": "lost a power to Sticky Fingers or the Owl",
    "robbed_of_acorns": "had an acorn stolen (solo: pickpocketed by Sticky Fingers)",
    "triggered_end": "revealed the last face-down card of the tree (triggered the end)",
    "bribed_owl": "bribed the Owl (solo)",
}


class NuttyFeatures:
    """The feature extractor of Nutty Squirrels of the Oakwood Forest (multiplayer and solo)."""

    game = "nutty"
    version = 3  # 3: the game-quality numbers (measure.py adds them from the replay)
    endings = ENDINGS
    numbers = NUMBERS
    seat_facts = SEAT_FACTS

    def extract(self, game: Game[Any], state: State) -> GameFeatures:
        """The features of a finished game, read in one pass over its events."""
        n = state.num_players
        facts = {key: [0.0] * n for key in SEAT_FACTS}
        chain = getattr(game.options, "arborist_mode", "reveal_only") == "chain"
        turns = flipped = leaves = by_arborist = broken = falls = lost_points = breaks = taken = 0
        round_no, trigger_round = 1, 0  # a game starts in round 1 (its first turn event says so too)
        trigger_at = twenty_at = -1  # event indices: the end triggered, a burrow first at 20 points
        reason = ""
        has_setup = False
        for index, event in enumerate(state.events):
            kind, data = event.kind, event.public
            if kind == "turn":
                turns += 1
                round_no = data["round"]
            elif kind == "flip":
                flipped += 1
                card, seat = data["card"], data["seat"]
                if card in LEAF_CODES:
                    leaves += 1
                elif card == BROKEN:
                    broken += 1
                elif card == SAPPY:
                    facts["slowed_by_sappy_feet"][seat] = 1.0
                elif card == ARBORIST:
                    facts["revealed_arborist"][seat] = 1.0
            elif kind == "arborist":
                cards = data["cards"]
                by_arborist += len(cards)
                broken += cards.count(BROKEN)
                if chain and SAPPY in cards:  # NS-10 chain: a revealed Sappy Feet acts as if flipped
                    facts["slowed_by_sappy_feet"][data["seat"]] = 1.0
            elif kind == "fall":
                cause = data["cause"]
                for seat, (brown, golden) in zip(data["seats"], data["lost"], strict=True):
                    falls += 1
                    lost_points += brown + 5 * golden
                    if brown or golden:
                        facts["lost_acorns_in_fall"][seat] = 1.0
                    if cause == "broken branch":
                        facts["fell_from_broken_branch"][seat] = 1.0
                    elif cause == "wind gust":
                        facts["blown_by_wind_gust"][seat] = 1.0
                    elif cause == "the Owl":
                        facts["scared_by_owl"][seat] = 1.0
            elif kind == "break":
                breaks += 1
                for seat, (brown, golden) in zip(data["fallen"], data["lost"], strict=True):
                    falls += 1
                    lost_points += brown + 5 * golden
                    facts["fell_in_limb_break"][seat] = 1.0
                    if brown or golden:
                        facts["lost_acorns_in_fall"][seat] = 1.0
            elif kind == "blown":
                facts["blown_by_wind_gust"][data["seat"]] = 1.0
            elif kind in ("claim", "buy"):
                taken += 1
                facts[POWER_FACT[data["power"]]][data["seat"]] = 1.0
            elif kind == "steal":
                victim = data["victim"]
                if "power" in data:
                    facts[POWER_FACT[data["power"]]][data["seat"]] = 1.0
                    facts["lost_power"][victim] = 1.0
                else:
                    facts["robbed_of_acorns"][victim] = 1.0
            elif kind == "owl":
                if "victim" in data:
                    facts["lost_power"][data["victim"]] = 1.0
                elif data.get("bribed"):
                    facts["bribed_owl"][data["seat"]] = 1.0
            elif kind == "pickpocket":
                facts["robbed_of_acorns"][data["seat"]] = 1.0
            elif kind == "fools_gold":
                facts["lost_golden_to_fools_gold"][data["seat"]] = 1.0
            elif kind in ("bury", "sticky_full"):
                if twenty_at < 0 and n > 1 and data["points"] >= WIN_POINTS:
                    twenty_at = index
            elif kind == "end_triggered":
                trigger_at, trigger_round = index, round_no
                facts["triggered_end"][data["seat"]] = 1.0
            elif kind == "setup":
                has_setup = True
                facts["first_player"][data.get("first", 0)] = 1.0
            elif kind == "game_over":
                reason = data["reason"]
        if not has_setup:  # a game started from a position in notation: its first player is in the view
            facts["first_player"][state.observe(None).get("first", 0) if n > 1 else 0] = 1.0
        rounds = round_no if n > 1 else 0
        scores = sorted(state.scores(), reverse=True)
        numbers = {
            "rounds": float(rounds),
            "turns": float(turns),
            "cards_flipped": float(flipped),
            "leaf_cards_flipped": float(leaves),
            "cards_revealed_by_arborist": float(by_arborist),
            "broken_branches_revealed": float(broken),
            "falls": float(falls),
            "points_lost_in_falls": float(lost_points),
            "limb_breaks": float(breaks),
            "powers_taken": float(taken),
            "tree_revealed": 1.0 if trigger_at >= 0 else 0.0,
            "tree_revealed_round": float(trigger_round),
            "top_score": float(scores[0]),
            "margin": float(scores[0] - scores[1]) if n > 1 else 0.0,
            "shared_win": 1.0 if len(state.winners()) > 1 else 0.0,
        }
        ending = _ending(n, reason, twenty_at, trigger_at)
        # Play goes clockwise, in seat order, from the first player (NS-2).
        first = facts["first_player"].index(1.0)
        order = [(seat - first) % n for seat in range(n)] if n > 1 else []
        return GameFeatures(ending=ending, numbers=numbers, seat_facts=facts, order=order)


def _ending(players: int, reason: str, twenty_at: int, trigger_at: int) -> str:
    """The ending key: the solo result, or 20 points against the end of the tree (NS-14, NS-15)."""
    if players == 1:
        if reason not in SOLO_ENDING:
            raise ValueError(f"nutty: unknown solo game_over reason {reason!r}")
        return SOLO_ENDING[reason]
    if reason == "round limit":
        return "round_limit"
    if reason not in ("20 points", "final round over"):
        raise ValueError(f"nutty: unknown game_over reason {reason!r}")
    if reason == "20 points" and twenty_at < 0:  # the log always has the bury first; be safe if not
        return "twenty_points"
    if twenty_at >= 0:  # win_at_20=finish_round also ends on "final round over" after a 20
        return "twenty_points_final_round" if 0 <= trigger_at < twenty_at else "twenty_points"
    return "tree_revealed"


EXTRACTOR = NuttyFeatures()
