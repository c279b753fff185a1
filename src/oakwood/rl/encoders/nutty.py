"""Nutty Squirrels' observation tensor (multiplayer at 2–6 seats, solo at 1), read from ``observe(seat)`` only.

Conventions (every field's meaning says which applies):

- **Seats are relative to the observer**: slot ``r`` of every per-seat field is seat ``(observer + r) % players``,
  so the observer is always first (a spectator's observation, ``seat`` ``None``, is read as seat 0's order).
- **The tree is limb-major**: card slot ``limb * 5 + position``, position 0 next to the Central Trunk. A slot
  holds no card when its limb is shorter (a break, or an unrefilled limb): then every one of its numbers is 0.
- **Several numbers per slot or seat** are slot-major / seat-major: ``tree_kind[slot * 19 + kind]``,
  ``tree_squirrels[slot * players + r]``, ``at[r * 31 + place]``, ``cheeks[r * 2 + colour]`` (brown first).
- **Places** a squirrel may stand: index 0 is the trunk, ``1 + limb * 5 + position`` a card.
- **Numbers** are flags (0/1), small counts (acorns on a card or carried, AP, Sappy Feet: a few units), or
  quantities divided by a fixed scale named in the meaning: stores of acorns in points ÷ 20 (the points that
  win), the supply ÷ 60 brown / ÷ 15 golden, card counts ÷ the dealt counts (the composition; in solo its kept
  kinds), rounds ÷ ``max_rounds + 1``. Every value is finite and at least 0.
- Card kinds follow ``cards.KINDS`` (leaves ``0 1 2 3 G``, events ``BB WG FG SF AR``, powers ``SW FL BP LA ST SR
  SP DO OW``); powers follow ``cards.POWERS``.

The layout depends only on the player count (solo has its own fields, no AP or rounds); the options change
only the scales (composition counts, ``max_rounds``, ``solo_max_actions``). The unseen-card counts are the
composition less every card in view, a function of what every seat sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from oakwood.engine import Game
from oakwood.games.nutty.cards import (
    BROWN_TOTAL,
    GOLDEN_TOTAL,
    KIND_ORDER,
    KINDS,
    LIMB_LENGTH,
    MARKET,
    OWL,
    POWERS,
    SAPPY,
    SOLO_KEEP,
    SOLO_KEEP_WITH_EVENTS,
    TREE_SIZE,
)
from oakwood.rl.tensors import Encoder, Layout, relative_seats

#: Points that win (NS-15, NS-17 d): the scale of every store of acorns.
WIN_POINTS = 20
PLACES = 1 + TREE_SIZE
MULTI_PHASES = ("turn", "fools", "over")
SOLO_PHASES = ("play", "fools", "bribe", "over")
DECISIONS = ("turn", "none")  # Nutty has no commit or race decisions
FOOLS_PLACES = ("cheeks", "backpack", "nest", "burrow")
SOLO_RESULTS = ("won", "lost", "ended")
POWER_INDEX = {power: i for i, power in enumerate(POWERS)}
_KINDS_TEXT = " ".join(KINDS)
_POWERS_TEXT = " ".join(POWERS)


def place_index(text: str) -> int:
    """The place index of a board's ``at`` (``trunk`` → 0, ``L3c2`` → 1 + 2 * 5 + 1)."""
    if text == "trunk":
        return 0
    limb, _, pos = text[1:].partition("c")
    return 1 + (int(limb) - 1) * LIMB_LENGTH + int(pos) - 1


class NuttyEncoder(Encoder):
    """The tensor of one Nutty Squirrels observation at a fixed table size (see the module's conventions)."""

    def __init__(self, game: Game[Any], players: int) -> None:
        self.solo = players == 1
        options = game.options
        cards: dict[str, int] = dict(options.cards)
        if self.solo:  # NS-17: only the kept kinds are dealt; the rest are boxed or in the market, known
            keep = SOLO_KEEP_WITH_EVENTS if options.solo_keep_events else SOLO_KEEP
            cards = {kind: count for kind, count in cards.items() if kind in keep}
        self.dealt = [cards.get(kind, 0) for kind in KINDS]
        self.dealt_total = sum(self.dealt)
        self.deck_scale = max(1, self.dealt_total - TREE_SIZE)
        self.max_rounds = getattr(options, "max_rounds", 60)
        self.max_actions = getattr(options, "solo_max_actions", 3000)
        super().__init__(game, players, self._layout(players))
        self.off = {f.name: f.offset for f in self.layout.fields}

    def _layout(self, n: int) -> Layout:
        lay = Layout()
        slot = "per card slot (limb-major, limb * 5 + position)"
        seats = "per relative seat (observer first)"
        lay.add("tree_present", TREE_SIZE, f"1 if a card is at this slot, {slot}")
        lay.add("tree_face_down", TREE_SIZE, f"1 if the card is face down (hidden), {slot}")
        lay.add(
            "tree_kind",
            TREE_SIZE * len(KINDS),
            f"face-up card kind one-hot, {slot} × kind ({_KINDS_TEXT}); the BB column marks a revealed "
            "Broken Branch; all 0 when face down or absent",
        )
        lay.add("tree_brown", TREE_SIZE, f"brown acorns lying on the card (count), {slot}")
        lay.add("tree_golden", TREE_SIZE, f"golden acorns lying on the card (count), {slot}")
        lay.add("tree_squirrels", TREE_SIZE * n, f"1 if the seat's squirrel stands on the card, {slot} × {seats}")
        lay.add("at", n * PLACES, f"where each squirrel stands, one-hot over 31 places (0 trunk, 1 + slot), {seats}")
        lay.add("cheeks", n * 2, f"acorns in the cheeks (count: brown, golden), {seats}")
        lay.add("backpack", n * 2, f"acorn in the Backpack (flags: brown, golden), {seats}")
        lay.add("nest", n * 2, f"acorns in the nest in points ÷ 20 (brown × 1, golden × 5), {seats}")
        lay.add("burrow", n * 2, f"acorns buried in points ÷ 20 (brown × 1, golden × 5), {seats}")
        lay.add("sticky", n * 2, f"acorns tracked on Sticky Fingers (count: brown, golden), {seats}")
        lay.add("powers", n * len(POWERS), f"powers held (flags over {_POWERS_TEXT}), {seats}")
        lay.add("sappy", n * 2, f"Sappy Feet beside the board (count: for the next turn, applied now), {seats}")
        lay.add("points", n, f"points (the running score) ÷ 20, {seats}")
        lay.add("supply", 2, "acorns in the supply: brown ÷ 60, golden ÷ 15")
        lay.add("deck", 1, "cards in the Leaf Deck ÷ (cards dealt − 30)")
        lay.add(
            "out_of_play",
            len(KINDS),
            f"face-up cards out of play per kind ({_KINDS_TEXT}) ÷ that kind's dealt count",
        )
        lay.add("out_face_down", 1, "cards out of play unseen (cut by a limb break) ÷ cards dealt")
        lay.add("out_acorns", 2, "acorns out of play (Sticky Fingers lost): brown ÷ 60, golden ÷ 15")
        lay.add(
            "unseen",
            len(KINDS),
            f"cards never seen per kind ({_KINDS_TEXT}): the dealt composition less every card in view, ÷ that "
            "kind's dealt count (the pool face-down cards and the Leaf Deck are drawn from)",
        )
        lay.add("hidden", 1, "cards never seen (face down on the tree, Leaf Deck, cut unseen) ÷ cards dealt")
        phases = SOLO_PHASES if self.solo else MULTI_PHASES
        lay.add("phase", len(phases), f"phase one-hot ({' '.join(phases)})")
        lay.add("decision", len(DECISIONS), f"decision one-hot ({' '.join(DECISIONS)})")
        lay.add("to_act", n, f"1 for each seat to act, {seats}")
        lay.add("terminal", 1, "1 once the game is over")
        lay.add("winners", n, f"1 for each winner (once over), {seats}")
        lay.add("fools_places", len(FOOLS_PLACES), "places Fool's Gold may take a golden from (flags: cheeks "
                "backpack nest burrow), while phase is fools")  # fmt: skip
        if self.solo:
            lay.add("market", len(MARKET), "powers for sale in the solo market (count: SW FL BP LA)")
            lay.add("wealth", 1, "points available for payments (cheeks, Backpack, nest) ÷ 20")
            lay.add("owl_waiting", 1, "face-up Owls on the tree waiting to be bribed (count)")
            lay.add("actions_taken", 1, "decisions taken so far ÷ solo_max_actions")
            lay.add("result", len(SOLO_RESULTS), "the solo result one-hot (won lost ended); all 0 while playing")
        else:
            lay.add("current", n, f"whose turn it is, one-hot, {seats}")
            lay.add("first", n, f"the first player, one-hot, {seats}")
            lay.add("ap", 1, "action points left this turn (count)")
            lay.add("ap_is", 6, "action points left, one-hot 0 1 2 3 4 5+")
            lay.add("sticky_used", 1, "1 if Sticky Fingers was used this turn")
            lay.add("spittoon_used", 1, "1 if the Spittoon was used this turn")
            lay.add("copy", len(POWERS), f"the power a Doppelgänger copies this turn, one-hot ({_POWERS_TEXT})")
            lay.add("copy_spent", 1, "1 if that copy is used up (single_use variant)")
            lay.add("round", 1, "the round number ÷ (max_rounds + 1), the most it reaches (NS-14a)")
            lay.add("end_triggered", 1, "1 once the end is triggered (NS-14)")
            lay.add("turns_left", 1, f"turns after the current one before the end ÷ {2 * n}; 0 if not triggered")
        return lay

    def fill(self, observation: Mapping[str, Any], out: NDArray[np.float32]) -> None:
        """Write one observation into the zeroed ``out`` (see the layout)."""
        n = self.players
        o = self.off
        me = observation.get("seat") or 0
        rel = relative_seats(me, n)
        kinds = len(KINDS)
        seen = [0] * kinds
        face_down = 0
        owls = 0
        for limb, row in enumerate(observation["tree"]):
            for pos, card in enumerate(row):
                i = limb * LIMB_LENGTH + pos
                out[o["tree_present"] + i] = 1
                kind = card["card"]
                if kind is None:
                    out[o["tree_face_down"] + i] = 1
                    face_down += 1
                else:
                    k = KIND_ORDER[kind]
                    out[o["tree_kind"] + i * kinds + k] = 1
                    seen[k] += 1
                    owls += kind == OWL
                out[o["tree_brown"] + i] = card["brown"]
                out[o["tree_golden"] + i] = card["golden"]
                for s in card["squirrels"]:
                    out[o["tree_squirrels"] + i * n + rel[s]] = 1
        for s, board in enumerate(observation["boards"]):
            r = rel[s]
            out[o["at"] + r * PLACES + place_index(board["at"])] = 1
            out[o["cheeks"] + 2 * r] = board["cheeks"]["brown"]
            out[o["cheeks"] + 2 * r + 1] = board["cheeks"]["golden"]
            pack = board["backpack"]
            if pack is not None:
                out[o["backpack"] + 2 * r + (pack == "golden")] = 1
            out[o["nest"] + 2 * r] = board["nest"]["brown"] / WIN_POINTS
            out[o["nest"] + 2 * r + 1] = 5 * board["nest"]["golden"] / WIN_POINTS
            out[o["burrow"] + 2 * r] = board["burrow"]["brown"] / WIN_POINTS
            out[o["burrow"] + 2 * r + 1] = 5 * board["burrow"]["golden"] / WIN_POINTS
            out[o["sticky"] + 2 * r] = board["sticky"]["brown"]
            out[o["sticky"] + 2 * r + 1] = board["sticky"]["golden"]
            for power in board["powers"]:
                out[o["powers"] + r * len(POWERS) + POWER_INDEX[power]] = 1
                if not self.solo:  # solo powers come from the market, never from the dealt cards
                    seen[KIND_ORDER[power]] += 1
            out[o["sappy"] + 2 * r] = board["sappy_next"]
            out[o["sappy"] + 2 * r + 1] = board["sappy_now"]
            seen[KIND_ORDER[SAPPY]] += board["sappy_next"] + board["sappy_now"]
            out[o["points"] + r] = board["points"] / WIN_POINTS
        out[o["supply"]] = observation["supply"]["brown"] / BROWN_TOTAL
        out[o["supply"] + 1] = observation["supply"]["golden"] / GOLDEN_TOTAL
        out[o["deck"]] = observation["deck"] / self.deck_scale
        gone = observation["out_of_play"]
        for kind in gone["cards"]:
            k = KIND_ORDER[kind]
            seen[k] += 1
            out[o["out_of_play"] + k] += 1 / max(1, self.dealt[k])
        out[o["out_face_down"]] = gone["face_down"] / self.dealt_total
        out[o["out_acorns"]] = gone["brown"] / BROWN_TOTAL
        out[o["out_acorns"] + 1] = gone["golden"] / GOLDEN_TOTAL
        for k in range(kinds):
            if self.dealt[k]:
                out[o["unseen"] + k] = max(0, self.dealt[k] - seen[k]) / self.dealt[k]
        out[o["hidden"]] = (face_down + observation["deck"] + gone["face_down"]) / self.dealt_total
        phases = SOLO_PHASES if self.solo else MULTI_PHASES
        out[o["phase"] + phases.index(observation["phase"])] = 1
        out[o["decision"] + DECISIONS.index(observation["decision"])] = 1
        for s in observation["to_act"]:
            out[o["to_act"] + rel[s]] = 1
        out[o["terminal"]] = bool(observation["terminal"])
        for s in observation["winners"]:
            out[o["winners"] + rel[s]] = 1
        for place in observation["fools_places"]:
            out[o["fools_places"] + FOOLS_PLACES.index(place)] = 1
        if self.solo:
            for power in observation["market"]:
                out[o["market"] + MARKET.index(power)] += 1
            out[o["wealth"]] = observation["wealth"] / WIN_POINTS
            out[o["owl_waiting"]] = owls
            out[o["actions_taken"]] = observation["actions_taken"] / self.max_actions
            if observation["result"]:
                out[o["result"] + SOLO_RESULTS.index(observation["result"])] = 1
            return
        out[o["current"] + rel[observation["current"]]] = 1
        out[o["first"] + rel[observation["first"]]] = 1
        ap = observation["ap"]
        out[o["ap"]] = ap
        out[o["ap_is"] + min(ap, 5)] = 1
        out[o["sticky_used"]] = bool(observation["sticky_used"])
        out[o["spittoon_used"]] = bool(observation["spittoon_used"])
        if observation["copy"]:
            out[o["copy"] + POWER_INDEX[observation["copy"]]] = 1
        out[o["copy_spent"]] = bool(observation["copy_spent"])
        out[o["round"]] = observation["round"] / (self.max_rounds + 1)
        out[o["end_triggered"]] = bool(observation["end_triggered"])
        if observation["end_triggered"] and observation["turns_left"] >= 0:
            out[o["turns_left"]] = observation["turns_left"] / (2 * n)


def encoder(game: Game[Any], players: int) -> NuttyEncoder:
    """Nutty Squirrels' encoder at ``players`` seats (1 = solo)."""
    return NuttyEncoder(game, players)
