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
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from oakwood.engine import Game, State
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
from oakwood.rl.encoders.nutty_direct import PLACE_INDEX, NuttyDirect
from oakwood.rl.encoders.nutty_direct import place_index as place_index  # its home before the split
from oakwood.rl.tensors import NON_NEGATIVE, UNIT, Encoder, Layout, relative_seats

if TYPE_CHECKING:
    from oakwood.games.nutty.tree import TreeState

#: Points that win (NS-15, NS-17 d): the scale of every store of acorns.
WIN_POINTS = 20
#: Every acorn of the game in points (brown 1, golden 5): no store of acorns can hold more.
ACORN_POINTS = BROWN_TOTAL + 5 * GOLDEN_TOTAL
PLACES = 1 + TREE_SIZE
MULTI_PHASES = ("turn", "fools", "over")
SOLO_PHASES = ("play", "fools", "bribe", "over")
DECISIONS = ("turn", "none")  # Nutty has no commit or race decisions
FOOLS_PLACES = ("cheeks", "backpack", "nest", "burrow")
SOLO_RESULTS = ("won", "lost", "ended")
POWER_INDEX = {power: i for i, power in enumerate(POWERS)}
MARKET_INDEX = {power: i for i, power in enumerate(MARKET)}
DECISION_INDEX = {decision: i for i, decision in enumerate(DECISIONS)}
FOOLS_PLACE_INDEX = {place: i for i, place in enumerate(FOOLS_PLACES)}
SOLO_RESULT_INDEX = {result: i for i, result in enumerate(SOLO_RESULTS)}
SAPPY_KIND = KIND_ORDER[SAPPY]
OWL_KIND = KIND_ORDER[OWL]
LIMB_FIRST_SLOTS = tuple(range(0, TREE_SIZE, LIMB_LENGTH))  # the slot of each limb's card 1
_KINDS_TEXT = " ".join(KINDS)
_POWERS_TEXT = " ".join(POWERS)


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
        # Tables for ``fill``: each observer's seat order (a spectator reads as seat 0), the phase indices, and
        # one out-of-play card's share of its kind rounded to float32 first, so that adding shares in float64
        # and storing as float32 gives numpy's float32 sum exactly.
        self.rel = [relative_seats(seat, players) for seat in range(players)]
        o = self.off
        #: Per relative seat: its offsets in at (place 0), cheeks, backpack, nest, burrow, sticky, powers (power 0),
        #: sappy and points.
        self.seat_offsets = [
            (o["at"] + r * PLACES, o["cheeks"] + 2 * r, o["backpack"] + 2 * r, o["nest"] + 2 * r, o["burrow"] + 2 * r,
             o["sticky"] + 2 * r, o["powers"] + r * len(POWERS), o["sappy"] + 2 * r, o["points"] + r)
            for r in range(players)
        ]  # fmt: skip
        self.out_share = [float(np.float32(1 / max(1, dealt))) for dealt in self.dealt]
        self.phase_index = {phase: i for i, phase in enumerate(SOLO_PHASES if self.solo else MULTI_PHASES)}
        #: The direct path's tables, held by the compiled ``nutty_direct`` (see its docstring).
        self._direct = NuttyDirect(
            players,
            self.off,
            self.rel,
            self.seat_offsets,
            self.out_share,
            self.dealt,
            self.deck_scale,
            self.dealt_total,
            self.phase_index,
            DECISION_INDEX,
            POWER_INDEX,
            MARKET_INDEX,
            FOOLS_PLACE_INDEX,
            SOLO_RESULT_INDEX,
            self.max_rounds,
            self.max_actions,
        )

    def _layout(self, n: int) -> Layout:
        lay = Layout()
        slot = "per card slot (limb-major, limb * 5 + position)"
        seats = "per relative seat (observer first)"
        lay.add("tree_present", TREE_SIZE, f"1 if a card is at this slot, {slot}", UNIT)
        lay.add("tree_face_down", TREE_SIZE, f"1 if the card is face down (hidden), {slot}", UNIT)
        lay.add(
            "tree_kind",
            TREE_SIZE * len(KINDS),
            f"face-up card kind one-hot, {slot} × kind ({_KINDS_TEXT}); the BB column marks a revealed "
            "Broken Branch; all 0 when face down or absent",
            UNIT,
        )
        lay.add("tree_brown", TREE_SIZE, f"brown acorns lying on the card (count), {slot}", (0.0, BROWN_TOTAL))
        lay.add("tree_golden", TREE_SIZE, f"golden acorns lying on the card (count), {slot}", (0.0, GOLDEN_TOTAL))
        lay.add("tree_squirrels", TREE_SIZE * n, f"1 if the seat's squirrel stands on the card, {slot} × {seats}", UNIT)
        lay.add(
            "at", n * PLACES, f"where each squirrel stands, one-hot over 31 places (0 trunk, 1 + slot), {seats}", UNIT
        )
        lay.add(
            "cheeks",
            n * 2,
            f"acorns in the cheeks (count: brown, golden), {seats}",
            (0.0, max(BROWN_TOTAL, GOLDEN_TOTAL)),
        )
        lay.add("backpack", n * 2, f"acorn in the Backpack (flags: brown, golden), {seats}", UNIT)
        lay.add(
            "nest",
            n * 2,
            f"acorns in the nest in points ÷ 20 (brown × 1, golden × 5), {seats}",
            (0.0, ACORN_POINTS / WIN_POINTS),
        )
        lay.add(
            "burrow",
            n * 2,
            f"acorns buried in points ÷ 20 (brown × 1, golden × 5), {seats}",
            (0.0, ACORN_POINTS / WIN_POINTS),
        )
        lay.add(
            "sticky",
            n * 2,
            f"acorns tracked on Sticky Fingers (count: brown, golden), {seats}",
            (0.0, max(BROWN_TOTAL, GOLDEN_TOTAL)),
        )
        lay.add("powers", n * len(POWERS), f"powers held (flags over {_POWERS_TEXT}), {seats}", UNIT)
        lay.add(
            "sappy",
            n * 2,
            f"Sappy Feet beside the board (count: for the next turn, applied now), {seats}",
            NON_NEGATIVE,
        )
        lay.add("points", n, f"points (the running score) ÷ 20, {seats}", NON_NEGATIVE)
        lay.add("supply", 2, "acorns in the supply: brown ÷ 60, golden ÷ 15", UNIT)
        lay.add("deck", 1, "cards in the Leaf Deck ÷ (cards dealt − 30)", (0.0, self.dealt_total / self.deck_scale))
        lay.add(
            "out_of_play",
            len(KINDS),
            f"face-up cards out of play per kind ({_KINDS_TEXT}) ÷ that kind's dealt count",
            NON_NEGATIVE,
        )
        lay.add("out_face_down", 1, "cards out of play unseen (cut by a limb break) ÷ cards dealt", UNIT)
        lay.add("out_acorns", 2, "acorns out of play (Sticky Fingers lost): brown ÷ 60, golden ÷ 15", UNIT)
        lay.add(
            "unseen",
            len(KINDS),
            f"cards never seen per kind ({_KINDS_TEXT}): the dealt composition less every card in view, ÷ that "
            "kind's dealt count (the pool face-down cards and the Leaf Deck are drawn from)",
            UNIT,
        )
        lay.add("hidden", 1, "cards never seen (face down on the tree, Leaf Deck, cut unseen) ÷ cards dealt", UNIT)
        phases = SOLO_PHASES if self.solo else MULTI_PHASES
        lay.add("phase", len(phases), f"phase one-hot ({' '.join(phases)})", UNIT)
        lay.add("decision", len(DECISIONS), f"decision one-hot ({' '.join(DECISIONS)})", UNIT)
        lay.add("to_act", n, f"1 for each seat to act, {seats}", UNIT)
        lay.add("terminal", 1, "1 once the game is over", UNIT)
        lay.add("winners", n, f"1 for each winner (once over), {seats}", UNIT)
        lay.add("fools_places", len(FOOLS_PLACES), "places Fool's Gold may take a golden from (flags: cheeks "
                "backpack nest burrow), while phase is fools", UNIT)  # fmt: skip
        if self.solo:
            lay.add("market", len(MARKET), "powers for sale in the solo market (count: SW FL BP LA)", NON_NEGATIVE)
            lay.add(
                "wealth",
                1,
                "points available for payments (cheeks, Backpack, nest) ÷ 20",
                (0.0, ACORN_POINTS / WIN_POINTS),
            )
            lay.add("owl_waiting", 1, "face-up Owls on the tree waiting to be bribed (count)", (0.0, TREE_SIZE))
            lay.add("actions_taken", 1, "decisions taken so far ÷ solo_max_actions", UNIT)
            lay.add("result", len(SOLO_RESULTS), "the solo result one-hot (won lost ended); all 0 while playing", UNIT)
        else:
            lay.add("current", n, f"whose turn it is, one-hot, {seats}", UNIT)
            lay.add("first", n, f"the first player, one-hot, {seats}", UNIT)
            lay.add("ap", 1, "action points left this turn (count)", NON_NEGATIVE)
            lay.add("ap_is", 6, "action points left, one-hot 0 1 2 3 4 5+", UNIT)
            lay.add("sticky_used", 1, "1 if Sticky Fingers was used this turn", UNIT)
            lay.add("spittoon_used", 1, "1 if the Spittoon was used this turn", UNIT)
            lay.add("copy", len(POWERS), f"the power a Doppelgänger copies this turn, one-hot ({_POWERS_TEXT})", UNIT)
            lay.add("copy_spent", 1, "1 if that copy is used up (single_use variant)", UNIT)
            lay.add("round", 1, "the round number ÷ (max_rounds + 1), the most it reaches (NS-14a)", UNIT)
            lay.add("end_triggered", 1, "1 once the end is triggered (NS-14)", UNIT)
            lay.add(
                "turns_left",
                1,
                f"turns after the current one before the end ÷ {2 * n}; 0 if not triggered",
                NON_NEGATIVE,
            )
        return lay

    def fill(self, observation: Mapping[str, Any], out: NDArray[np.float32]) -> None:
        """Write one observation into the zeroed ``out`` (see the layout)."""
        # Built for speed (the RL loop encodes every step): offsets hoisted into locals, tables built in
        # ``__init__``, and every number stored through a memoryview of ``out``: a store that rounds the float64
        # to float32 exactly as numpy's setitem does, at a fraction of its cost.
        n = self.players
        o = self.off
        solo = self.solo
        kinds = len(KINDS)
        rel = self.rel[observation.get("seat") or 0]
        seen = [0] * kinds
        face_down = 0
        view: Any = memoryview(cast(Any, out))  # Any: typeshed's memoryview takes int items only, not floats
        with view as v:
            present, down, kind_at = o["tree_present"], o["tree_face_down"], o["tree_kind"]
            brown_at, golden_at, squirrels_at = o["tree_brown"], o["tree_golden"], o["tree_squirrels"]
            for first, row in zip(LIMB_FIRST_SLOTS, observation["tree"], strict=True):
                for i, card in enumerate(row, first):
                    v[present + i] = 1.0
                    kind = card["card"]
                    if kind is None:
                        v[down + i] = 1.0
                        face_down += 1
                    else:
                        k = KIND_ORDER[kind]
                        v[kind_at + i * kinds + k] = 1.0
                        seen[k] += 1
                    acorns = card["brown"]
                    if acorns:  # ``out`` is zeroed: zeros need no store
                        v[brown_at + i] = acorns
                    acorns = card["golden"]
                    if acorns:
                        v[golden_at + i] = acorns
                    squirrels = card["squirrels"]
                    if squirrels:
                        for s in squirrels:
                            v[squirrels_at + i * n + rel[s]] = 1.0
            owls = seen[OWL_KIND]  # face-up Owls on the tree: in solo, the only Owls counted
            for s, board in enumerate(observation["boards"]):
                at, cheeks, backpack, nest, burrow, sticky, powers, sappy, points = self.seat_offsets[rel[s]]
                v[at + PLACE_INDEX[board["at"]]] = 1.0
                # Most stores hold no acorns: a pair of zeros needs no store (``out`` is zeroed).
                acorns = board["cheeks"]
                brown, golden = acorns["brown"], acorns["golden"]
                if brown or golden:
                    v[cheeks] = brown
                    v[cheeks + 1] = golden
                pack = board["backpack"]
                if pack is not None:
                    v[backpack + (pack == "golden")] = 1.0
                acorns = board["nest"]
                brown, golden = acorns["brown"], acorns["golden"]
                if brown or golden:
                    v[nest] = brown / WIN_POINTS
                    v[nest + 1] = 5 * golden / WIN_POINTS
                acorns = board["burrow"]
                brown, golden = acorns["brown"], acorns["golden"]
                if brown or golden:
                    v[burrow] = brown / WIN_POINTS
                    v[burrow + 1] = 5 * golden / WIN_POINTS
                acorns = board["sticky"]
                brown, golden = acorns["brown"], acorns["golden"]
                if brown or golden:
                    v[sticky] = brown
                    v[sticky + 1] = golden
                for power in board["powers"]:
                    v[powers + POWER_INDEX[power]] = 1.0
                    if not solo:  # solo powers come from the market, never from the dealt cards
                        seen[KIND_ORDER[power]] += 1
                sappy_next, sappy_now = board["sappy_next"], board["sappy_now"]
                if sappy_next or sappy_now:
                    v[sappy] = sappy_next
                    v[sappy + 1] = sappy_now
                    seen[SAPPY_KIND] += sappy_next + sappy_now
                if score := board["points"]:
                    v[points] = score / WIN_POINTS
            supply = observation["supply"]
            v[o["supply"]] = supply["brown"] / BROWN_TOTAL
            v[o["supply"] + 1] = supply["golden"] / GOLDEN_TOTAL
            deck = observation["deck"]
            v[o["deck"]] = deck / self.deck_scale
            gone = observation["out_of_play"]
            out_of_play = o["out_of_play"]
            for kind in gone["cards"]:
                k = KIND_ORDER[kind]
                seen[k] += 1
                v[out_of_play + k] += self.out_share[k]
            v[o["out_face_down"]] = gone["face_down"] / self.dealt_total
            v[o["out_acorns"]] = gone["brown"] / BROWN_TOTAL
            v[o["out_acorns"] + 1] = gone["golden"] / GOLDEN_TOTAL
            unseen = o["unseen"]
            for k, dealt, count in zip(range(kinds), self.dealt, seen, strict=True):
                if dealt > count:  # else none left unseen (or none dealt): 0
                    v[unseen + k] = (dealt - count) / dealt
            v[o["hidden"]] = (face_down + deck + gone["face_down"]) / self.dealt_total
            v[o["phase"] + self.phase_index[observation["phase"]]] = 1.0
            v[o["decision"] + DECISION_INDEX[observation["decision"]]] = 1.0
            for s in observation["to_act"]:
                v[o["to_act"] + rel[s]] = 1.0
            if observation["terminal"]:
                v[o["terminal"]] = 1.0
            for s in observation["winners"]:
                v[o["winners"] + rel[s]] = 1.0
            for place in observation["fools_places"]:
                v[o["fools_places"] + FOOLS_PLACE_INDEX[place]] = 1.0
            if solo:
                for power in observation["market"]:
                    v[o["market"] + MARKET_INDEX[power]] += 1
                v[o["wealth"]] = observation["wealth"] / WIN_POINTS
                v[o["owl_waiting"]] = owls
                v[o["actions_taken"]] = observation["actions_taken"] / self.max_actions
                if observation["result"]:
                    v[o["result"] + SOLO_RESULT_INDEX[observation["result"]]] = 1.0
                return
            v[o["current"] + rel[observation["current"]]] = 1.0
            v[o["first"] + rel[observation["first"]]] = 1.0
            ap = observation["ap"]
            v[o["ap"]] = ap
            v[o["ap_is"] + min(ap, 5)] = 1.0
            if observation["sticky_used"]:
                v[o["sticky_used"]] = 1.0
            if observation["spittoon_used"]:
                v[o["spittoon_used"]] = 1.0
            if observation["copy"]:
                v[o["copy"] + POWER_INDEX[observation["copy"]]] = 1.0
            if observation["copy_spent"]:
                v[o["copy_spent"]] = 1.0
            v[o["round"]] = observation["round"] / (self.max_rounds + 1)
            if observation["end_triggered"]:
                v[o["end_triggered"]] = 1.0
                if observation["turns_left"] >= 0:
                    v[o["turns_left"]] = observation["turns_left"] / (2 * n)

    def encode_state(self, state: State, seat: int | None) -> NDArray[np.float32]:
        """The tensor of ``state.observe(seat)`` read straight from the state (the direct path; tested equal to
        ``encode(state.observe(seat))`` by ``tests/conformance/test_direct_tensors.py``)."""
        if seat is not None:
            state._check_seat_number(seat)  # the seats observe() accepts, and its refusal of any other
        out = np.zeros(self.size, dtype=np.float32)
        self._fill_state(cast("TreeState", state), seat, out)
        return out

    def fill_state(self, state: State, seat: int | None, out: NDArray[np.float32]) -> None:
        """Write the tensor of ``state.observe(seat)`` into ``out`` (whatever it held), by the direct path."""
        if seat is not None:
            state._check_seat_number(seat)
        out.fill(0.0)
        self._fill_state(cast("TreeState", state), seat, out)

    def _fill_state(self, state: TreeState, seat: int | None, out: NDArray[np.float32]) -> None:
        """:meth:`fill` of ``state.observe(seat)`` read from the state's fields, by the compiled ``nutty_direct``."""
        with memoryview(cast(Any, out)) as view:
            self._direct.fill(state, seat, view)


def encoder(game: Game[Any], players: int) -> NuttyEncoder:
    """Nutty Squirrels' encoder at ``players`` seats (1 = solo)."""
    return NuttyEncoder(game, players)
