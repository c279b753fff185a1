"""Nutty Squirrels' direct tensor path: ``observe(seat)``'s tensor read straight from the state (issue 34).

Split from ``nutty.py`` so that mypyc compiles it (issue 36; ``oakwood/form.py`` lists it): it reads dozens of
the state's fields a step, and a native attribute read from interpreted code goes through a getter slower than
the interpreter's own slot read, so the interpreted encoder made the AEC loop slower compiled than pure (0.66×).
Compiled beside the state, each read is a native field load. The module imports neither numpy nor anything of
``oakwood.rl`` that does (the isolated build of ``pip install .`` has no numpy): the tensor arrives as a
``memoryview`` of the encoder's float32 array, written through the buffer protocol as the pure form always did,
so both forms store the same float32 values. ``nutty.py``'s layout defines the offsets this path writes at;
``tests/conformance/test_direct_tensors.py`` proves the path equal to ``encode(observe(seat))``.
"""

from __future__ import annotations

from typing import Any, Final

from oakwood.games.nutty.cards import (
    BROWN_TOTAL,
    GOLDEN_TOTAL,
    KIND_ORDER,
    KINDS,
    LIMB_LENGTH,
    LIMBS,
    OWL,
    SAPPY,
)
from oakwood.games.nutty.solo import SoloState
from oakwood.games.nutty.state import NuttyState
from oakwood.games.nutty.tree import _PLACE_NAMES, TRUNK, TreeState

#: Points that win (NS-15, NS-17 d): the scale of every store of acorns.
WIN_POINTS: Final = 20
SAPPY_KIND: Final = KIND_ORDER[SAPPY]
OWL_KIND: Final = KIND_ORDER[OWL]
KIND_COUNT: Final = len(KINDS)


def place_index(text: str) -> int:
    """The place index of a board's ``at`` (``trunk`` → 0, ``L3c2`` → 1 + 2 * 5 + 1)."""
    if text == "trunk":
        return 0
    limb, _, pos = text[1:].partition("c")
    return 1 + (int(limb) - 1) * LIMB_LENGTH + int(pos) - 1


#: ``place_index`` of every place a squirrel can stand on, looked up by ``NuttyEncoder.fill``.
PLACE_INDEX: Final[dict[str, int]] = {"trunk": 0} | {
    f"L{limb + 1}c{pos + 1}": place_index(f"L{limb + 1}c{pos + 1}")
    for limb in range(LIMBS)
    for pos in range(LIMB_LENGTH)
}
#: ``PLACE_INDEX`` of every position code of the state's ``where`` (``TRUNK`` and ``limb * STRIDE + position``), as
#: the observation names it.
PLACE_OF_CODE: Final[dict[int, int]] = {
    code: PLACE_INDEX[name] for code, name in _PLACE_NAMES.items() if name in PLACE_INDEX
}
#: The tensor slot of every card position code.
SLOT_OF_CODE: Final[dict[int, int]] = {code: place - 1 for code, place in PLACE_OF_CODE.items() if code != TRUNK}


class NuttyDirect:
    """The encoder's tables the direct path reads, held natively (built once per encoder)."""

    def __init__(
        self,
        players: int,
        offsets: dict[str, int],
        rel: list[list[int]],
        seat_offsets: list[tuple[int, int, int, int, int, int, int, int, int]],
        out_share: list[float],
        dealt: list[int],
        deck_scale: int,
        dealt_total: int,
        phase_index: dict[str, int],
        decision_index: dict[str, int],
        power_index: dict[str, int],
        market_index: dict[str, int],
        fools_place_index: dict[str, int],
        solo_result_index: dict[str, int],
        max_rounds: int,
        max_actions: int,
    ) -> None:
        self.players = players
        self.solo = players == 1
        self.off = offsets
        self.rel = rel
        self.seat_offsets = seat_offsets
        self.out_share = out_share
        self.dealt = dealt
        self.deck_scale = deck_scale
        self.dealt_total = dealt_total
        self.phase_index = phase_index
        self.decision_index = decision_index
        self.power_index = power_index
        self.market_index = market_index
        self.fools_place_index = fools_place_index
        self.solo_result_index = solo_result_index
        self.max_rounds = max_rounds
        self.max_actions = max_actions

    def fill(self, state: TreeState, seat: int | None, out: Any) -> None:
        """Write the tensor of ``state.observe(seat)`` into the zeroed float32 buffer ``out`` (a memoryview),
        each value read from the field of the state that ``TreeState.observe_tree`` and the states' ``_observe``
        read it from (the same stores, in the same order, as ``NuttyEncoder.fill``)."""
        n = self.players
        o = self.off
        solo = self.solo
        kinds = KIND_COUNT
        power_index = self.power_index
        rel = self.rel[seat or 0]
        seen = [0] * kinds
        face_down = 0
        v: Any = out
        present, down, kind_at = o["tree_present"], o["tree_face_down"], o["tree_kind"]
        brown_at, golden_at, squirrels_at = o["tree_brown"], o["tree_golden"], o["tree_squirrels"]
        limbs = state.limbs
        if len(limbs) != LIMBS:  # as the pure fill's strict zip over the six limbs refused it
            raise ValueError(f"a tree of {len(limbs)} limbs, not {LIMBS}")
        for limb in range(LIMBS):
            i = limb * LIMB_LENGTH  # the slot of the limb's card 1
            for kind, up, brown, golden in limbs[limb]:
                v[present + i] = 1.0
                if not up:
                    v[down + i] = 1.0
                    face_down += 1
                else:
                    k = KIND_ORDER[kind]
                    v[kind_at + i * kinds + k] = 1.0
                    seen[k] += 1
                if brown:  # ``out`` is zeroed: zeros need no store
                    v[brown_at + i] = brown
                if golden:
                    v[golden_at + i] = golden
                i += 1
        where = state.where
        for s in range(len(where)):
            w = where[s]
            if w != TRUNK:
                v[squirrels_at + SLOT_OF_CODE[w] * n + rel[s]] = 1.0
        owls = seen[OWL_KIND]  # face-up Owls on the tree: in solo, the only Owls counted
        cheeks_b, cheeks_g, pack_of = state.cheeks_b, state.cheeks_g, state.pack
        nest_b, nest_g, bur_b, bur_g = state.nest_b, state.nest_g, state.bur_b, state.bur_g
        stick_b, stick_g, powers_of = state.stick_b, state.stick_g, state.powers
        sappy_next_of, sappy_now_of = state.sappy_next, state.sappy_now
        for s in range(n):
            at, cheeks, backpack, nest, burrow, sticky, powers, sappy, points = self.seat_offsets[rel[s]]
            v[at + PLACE_OF_CODE[where[s]]] = 1.0
            # Most stores hold no acorns: a pair of zeros needs no store (``out`` is zeroed).
            brown, golden = cheeks_b[s], cheeks_g[s]
            if brown or golden:
                v[cheeks] = brown
                v[cheeks + 1] = golden
            pack = pack_of[s]
            if pack:  # "b" or "g"; "" for an empty Backpack
                v[backpack + (1 if pack == "g" else 0)] = 1.0
            brown, golden = nest_b[s], nest_g[s]
            if brown or golden:
                v[nest] = brown / WIN_POINTS
                v[nest + 1] = 5 * golden / WIN_POINTS
            brown, golden = bur_b[s], bur_g[s]
            if brown or golden:
                v[burrow] = brown / WIN_POINTS
                v[burrow + 1] = 5 * golden / WIN_POINTS
            brown, golden = stick_b[s], stick_g[s]
            if brown or golden:
                v[sticky] = brown
                v[sticky + 1] = golden
            for power in powers_of[s]:
                v[powers + power_index[power]] = 1.0
                if not solo:  # solo powers come from the market, never from the dealt cards
                    seen[KIND_ORDER[power]] += 1
            sappy_next, sappy_now = sappy_next_of[s], sappy_now_of[s]
            if sappy_next or sappy_now:
                v[sappy] = sappy_next
                v[sappy + 1] = sappy_now
                seen[SAPPY_KIND] += sappy_next + sappy_now
            score = state.points(s)
            if score:
                v[points] = score / WIN_POINTS
        v[o["supply"]] = state.supply_b / BROWN_TOTAL
        v[o["supply"] + 1] = state.supply_g / GOLDEN_TOTAL
        deck = len(state.deck)
        v[o["deck"]] = deck / self.deck_scale
        out_of_play = o["out_of_play"]
        out_share = self.out_share
        for kind in state.out_known:
            k = KIND_ORDER[kind]
            seen[k] += 1
            # Read back as float32 and stored again: the same rounding at each card as the pure ``fill``.
            v[out_of_play + k] += out_share[k]
        gone_face_down = len(state.out_hidden)
        v[o["out_face_down"]] = gone_face_down / self.dealt_total
        v[o["out_acorns"]] = state.gone_b / BROWN_TOTAL
        v[o["out_acorns"] + 1] = state.gone_g / GOLDEN_TOTAL
        unseen = o["unseen"]
        dealt_of = self.dealt
        for k in range(kinds):
            dealt, count = dealt_of[k], seen[k]
            if dealt > count:  # else none left unseen (or none dealt): 0
                v[unseen + k] = (dealt - count) / dealt
        v[o["hidden"]] = (face_down + deck + gone_face_down) / self.dealt_total
        phase = state.phase
        v[o["phase"] + self.phase_index[phase]] = 1.0
        v[o["decision"] + self.decision_index[state._decision().value]] = 1.0
        for s in state._to_act():
            v[o["to_act"] + rel[s]] = 1.0
        if phase == "over":
            v[o["terminal"]] = 1.0
            for s in state._winners():
                v[o["winners"] + rel[s]] = 1.0
        if solo:
            assert isinstance(state, SoloState)
            if phase == "fools":
                for place in state.fools_places(0):
                    v[o["fools_places"] + self.fools_place_index[place]] = 1.0
            for power in state.market:
                v[o["market"] + self.market_index[power]] += 1
            v[o["wealth"]] = state.wealth() / WIN_POINTS
            v[o["owl_waiting"]] = owls
            v[o["actions_taken"]] = state.actions_taken / self.max_actions
            if state.result:
                v[o["result"] + self.solo_result_index[state.result]] = 1.0
            return
        assert isinstance(state, NuttyState)
        if phase == "fools":
            for place in state.fools_places(state.current):
                v[o["fools_places"] + self.fools_place_index[place]] = 1.0
        v[o["current"] + rel[state.current]] = 1.0
        v[o["first"] + rel[state.first]] = 1.0
        ap = state.ap
        v[o["ap"]] = ap
        v[o["ap_is"] + min(ap, 5)] = 1.0
        if state.sticky_used:
            v[o["sticky_used"]] = 1.0
        if state.spit_used:
            v[o["spittoon_used"]] = 1.0
        if state.copy:
            v[o["copy"] + power_index[state.copy]] = 1.0
        if state.copy_spent:
            v[o["copy_spent"]] = 1.0
        v[o["round"]] = state.round_no / (self.max_rounds + 1)
        if state.end_triggered:
            v[o["end_triggered"]] = 1.0
            if state.turns_left >= 0:
                v[o["turns_left"]] = state.turns_left / (2 * n)
