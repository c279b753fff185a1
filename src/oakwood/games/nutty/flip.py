"""Nutty Squirrels, flipping a card in the multiplayer game: the card is revealed and resolved at once —
leaves take their acorns, a Broken Branch drops the squirrels on it, and the event cards act: Wind Gust,
Fool's Gold, Sappy Feet, Arborist (NS-6 … NS-10); then breaks and the end trigger (NS-6, NS-14).
"""

from __future__ import annotations

from oakwood.engine import InvariantError
from oakwood.engine.native import mypyc_attr

from .actions import Act, place_name
from .cards import (
    ARBORIST,
    BROKEN,
    EVENTS,
    FOOLS,
    LEAF_ACORNS,
    POWERS,
    SAPPY,
    WIND,
)
from .powers import Powers
from .tree import STRIDE, TRUNK, at, is_broken


# On Powers, not beside it (``NuttyState(Flipping, Powers)`` had the same method order): mypyc compiles a class of
# one native base only.
@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class Flipping(Powers):
    """The Flip action and everything a revealed card does."""

    __slots__ = ()

    def _do_flip(self, s: int, act: Act) -> None:
        """Flip (1 AP): reveal the card underfoot and resolve it at once."""
        self.ap -= 1
        limb, pos = divmod(self.where[s], STRIDE)
        kind, _, brown, golden = self.limbs[limb][pos]
        self.limbs[limb][pos] = (kind, True, brown, golden)
        self._event("flip", seat=s, at=place_name(limb, pos), card=kind, ap=self.ap)
        ends = self._resolve(s, limb, pos, auto_fools=False)
        self._after_tree_change(s, limb, ends)

    def _after_tree_change(self, s: int, limb: int, ends: bool) -> None:
        """Breaks, the end trigger, and ending the turn if the active squirrel fell (NS-6, NS-14)."""
        fallen = self.check_break(limb, self.opts.break_tokens_beyond == "slide_to_break")
        if s in fallen:
            ends = True
        self._check_end_trigger(s)
        if ends and self.phase == "fools":
            # A fall lost the carried goldens; the nest one is the obvious pick over the burrow one.
            self.exchange_golden(s, self.fools_places(s)[0])
            self.phase = "turn"
        if ends and self.phase == "turn":
            self._end_turn()

    def _resolve(self, s: int, limb: int, pos: int, auto_fools: bool) -> bool:
        """RESOLVE a card just revealed by ``s`` at (limb, pos); returns whether the turn ends."""
        kind = self.limbs[limb][pos][0]
        if kind in LEAF_ACORNS:
            self.stock_leaf(limb, pos)
            return False
        if kind in POWERS:
            return False  # it stays face up; Claim is a separate, free action (NS-5)
        if kind == BROKEN:  # everyone on it falls; the flipper's turn is over (NS-6)
            self.fall_all(self.seats_at(at(limb, pos)), "broken branch")
            return True
        if kind == WIND:
            fallen = self._wind_gust(limb, pos)
            return s in fallen or self.opts.wind_gust_turn_end == "always"  # NS-7
        if kind == FOOLS:
            self.out_known.append(self.remove_card(limb, pos))
            self._fools_gold(s, auto_fools)
            return False
        if kind == SAPPY:  # NS-9: beside the board until the end of the revealer's next turn
            self.remove_card(limb, pos)
            self.sappy_next[s] += 1
            return False
        if kind == ARBORIST:
            return self._arborist(s, limb, pos)
        raise InvariantError(f"unknown card {kind!r}")

    def _wind_gust(self, limb: int, pos: int) -> list[int]:
        """NS-7: every squirrel on the limb moves two cards out (landing off the end or on a BB falls)."""
        cards = self.limbs[limb]
        fallen = []
        for v, w in enumerate(self.where):
            if w != TRUNK and w // STRIDE == limb:
                dest = w % STRIDE + 2
                if dest >= len(cards) or is_broken(cards[dest]):
                    fallen.append(v)
                else:
                    self.where[v] = at(limb, dest)
                    self._event("blown", seat=v, to=place_name(limb, dest))
        if fallen:
            self.fall_all(fallen, "wind gust")
        self.out_known.append(self.remove_card(limb, pos))  # the push happens first, then the card goes
        return fallen

    def _fools_gold(self, s: int, auto: bool) -> None:
        """NS-8: exchange one golden (the revealer's choice) for a brown."""
        places = self.fools_places(s)
        if len(places) == 1 or (auto and places):
            self.exchange_golden(s, places[0])
        elif places:
            self.phase = "fools"

    def _do_exchange(self, s: int, act: Act) -> None:
        self.exchange_golden(s, act.other)
        self.phase = "turn"

    def _arborist(self, s: int, limb: int, pos: int) -> bool:
        """NS-10: reveal every other face-down card of the limb; chain mode resolves each as if flipped."""
        cards = self.limbs[limb]
        revealed = []
        for i, (kind, up, brown, golden) in enumerate(cards):
            if i != pos and not up:
                cards[i] = (kind, True, brown, golden)
                revealed.append(i)
        self._event("arborist", seat=s, limb=limb + 1, cards=[cards[i][0] for i in revealed])
        ends = False
        own = pos
        if self.opts.arborist_mode == "chain":
            for i in reversed(revealed):  # outer end first, so inner positions keep their numbers
                kind = cards[i][0]
                if kind == ARBORIST:  # an Arborist found by an Arborist is removed without effect
                    self.out_known.append(self.remove_card(limb, i))
                else:
                    ends = self._resolve(s, limb, i, auto_fools=True) or ends
                if kind in EVENTS and kind != BROKEN and i < own:
                    own -= 1  # a removed card inward of the Arborist moved it one place in
        else:
            for i in revealed:
                kind = cards[i][0]
                if kind in LEAF_ACORNS:
                    self.stock_leaf(limb, i)
                elif kind == BROKEN:
                    fallen = self.seats_at(at(limb, i))
                    if fallen:
                        self.fall_all(fallen, "broken branch")
                    ends = ends or s in fallen
            for i in reversed(revealed):  # other events leave without effect, outer end first
                if cards[i][0] in EVENTS and cards[i][0] != BROKEN:
                    self.out_known.append(self.remove_card(limb, i))
                    if i < own:
                        own -= 1
        self.out_known.append(self.remove_card(limb, own))
        return ends
