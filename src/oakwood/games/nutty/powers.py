"""Nutty Squirrels powers in the multiplayer game (NS-11 … NS-13): Lasso, Spittoon, Sticky Fingers, the Owl
and the Doppelgänger — when each may be used, and what using it does. The powers that change movement,
carrying or action points are read where those rules are (``has`` in ``turn.py``).
"""

from __future__ import annotations

from oakwood.engine.native import mypyc_attr

from . import actions as A
from .actions import Act, place_name
from .cards import (
    DOPPEL,
    FLYING,
    LASSO,
    OWL,
    POWERS,
    SPITTOON,
    STICKY,
    SUGAR,
)
from .tree import STRIDE, TRUNK, sort_powers
from .turn import TurnState


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class Powers(TurnState):
    """The power actions of a multiplayer turn."""

    __slots__ = ()

    # ------------------------------------------------------------------ when a power may be used
    def _power_actions(self, s: int, w: int, spare: int, copy: str, out: list[Act]) -> None:
        """Lasso, Spittoon, Sticky Fingers, Owl and Doppelgänger (NS-11 … NS-13) for the seat to act, ``s``,
        whose Doppelgänger copies ``copy`` ("" when none or spent: ``has`` inlined)."""
        mine = self.powers[s]
        if spare >= 1 and w != TRUNK and (LASSO in mine or copy == LASSO):
            limb, pos = divmod(w, STRIDE)
            for sl, sp in self.lasso_sources(s, limb, pos):
                src = self.limbs[sl][sp]
                if src[2]:
                    out.append(A.LASSO[sl][sp]["b"])
                if src[3]:
                    out.append(A.LASSO[sl][sp]["g"])
        if spare >= 1 and not self.spit_used and (SPITTOON in mine or copy == SPITTOON):
            for sl, cards in enumerate(self.limbs):
                for sp, src in enumerate(cards):
                    if src[2]:
                        out.append(A.SPIT[sl][sp]["b"])
                    if src[3]:
                        out.append(A.SPIT[sl][sp]["g"])
        if spare >= 1 and not self.sticky_used and (STICKY in mine or copy == STICKY):
            self._sticky_actions(s, w, out)
        if OWL in mine or copy == OWL:
            others = [v for v in range(self.num_players) if v != s and self.where[v] != TRUNK]
            limbs = {self.where[v] // STRIDE for v in others}
            if w == TRUNK:
                out += [A.OWL_LIMB[limb] for limb in sorted(limbs)]
            elif w // STRIDE in limbs:
                out.append(A.OWL_LIMB[w // STRIDE])
            for v in range(self.num_players):
                if v != s:
                    out += [A.OWL_POWER[v][p] for p in self.powers[v]]
        if DOPPEL in mine and not self.copy:
            theirs = {p for v in range(self.num_players) if v != s for p in self.powers[v]}
            out += [A.COPY[p] for p in POWERS if p in theirs and p not in mine and p != DOPPEL]

    def lasso_sources(self, seat: int, limb: int, pos: int) -> list[tuple[int, int]]:
        """Cards the Lasso reaches: i±1 on the same limb; next door too with the lateral variant (NS-11)."""
        out = []
        if pos > 0:
            out.append((limb, pos - 1))
        if pos + 1 < len(self.limbs[limb]):
            out.append((limb, pos + 1))
        if self.opts.lasso_lateral_with_flying and self.has(seat, FLYING):
            for side in ((limb + 5) % 6, (limb + 1) % 6):
                if pos < len(self.limbs[side]):
                    out.append((side, pos))
        return out

    def _sticky_actions(self, s: int, w: int, out: list[Act]) -> None:
        """NS-12: the nest from the trunk while the victim is not; the cheeks or a power on the same card."""
        own = STICKY in self.powers[s]
        if not own and self.opts.doppel_sticky == "take_tracked_loot":
            if self.has_room(s):
                for v in range(self.num_players):
                    if v != s and self.stick_b[v] + self.stick_g[v]:
                        out.append(A.LOOT[v])
            return
        room = own or self.has_room(s)
        for v in range(self.num_players):
            if v == s:
                continue
            wv = self.where[v]
            if w == TRUNK and wv != TRUNK:
                if room and self.nest_b[v]:
                    out.append(A.STEAL_ACORN[v]["b"])
                if room and self.nest_g[v]:
                    out.append(A.STEAL_ACORN[v]["g"])
            elif w != TRUNK and wv == w:
                if room and self.cheeks_b[v]:
                    out.append(A.STEAL_ACORN[v]["b"])
                if room and self.cheeks_g[v]:
                    out.append(A.STEAL_ACORN[v]["g"])
                if own or len(self.powers[s]) < 3:
                    out += [A.STEAL_POWER[v][p] for p in self.powers[v] if p not in self.powers[s]]

    # ------------------------------------------------------------------ using a power
    def _do_lasso(self, s: int, act: Act) -> None:
        """The Lasso (1 AP): pull one acorn from an adjacent card onto this one."""
        self.ap -= 1
        limb, pos = divmod(self.where[s], STRIDE)
        brown, golden = int(act.colour == "b"), int(act.colour == "g")
        self.add_to_card(act.limb, act.pos, -brown, -golden)
        self.add_to_card(limb, pos, brown, golden)
        self._spend_copy(s, LASSO)
        self._event(
            "lasso",
            seat=s,
            source=place_name(act.limb, act.pos),
            to=place_name(limb, pos),
            colour=act.colour,
            ap=self.ap,
        )

    def _do_spit(self, s: int, act: Act) -> None:
        """The Spittoon (1 AP, once a turn): one acorn lying on any card into the nest (NS-11)."""
        self.ap -= 1
        self.spit_used = True
        brown, golden = int(act.colour == "b"), int(act.colour == "g")
        self.add_to_card(act.limb, act.pos, -brown, -golden)
        self.nest_b[s] += brown
        self.nest_g[s] += golden
        self._spend_copy(s, SPITTOON)
        self._event("spit", seat=s, source=place_name(act.limb, act.pos), colour=act.colour, ap=self.ap)

    def _do_steal(self, s: int, act: Act) -> None:
        """Sticky Fingers (1 AP, once a turn): one acorn, or one power (NS-12)."""
        self.ap -= 1
        self.sticky_used = True
        v = act.seat
        own = STICKY in self.powers[s]
        if act.power:
            self.lose_power(v, act.power)
            if own:  # the thief's Sticky Fingers leaves play; its tracked acorns with it
                self.lose_power(s, STICKY)
                self.out_known.append(STICKY)
            self.powers[s] = sort_powers((*self.powers[s], act.power))
            self._spend_copy(s, STICKY)
            self._event("steal", seat=s, victim=v, power=act.power, ap=self.ap)
            return
        colour = act.colour
        from_nest = self.where[s] == TRUNK
        if from_nest:
            if colour == "b":
                self.nest_b[v] -= 1
            else:
                self.nest_g[v] -= 1
        elif colour == "b":
            self.cheeks_b[v] -= 1
        else:
            self.cheeks_g[v] -= 1
        source = "nest" if from_nest else "cheeks"
        self._event("steal", seat=s, victim=v, colour=colour, source=source, tracked=own, ap=self.ap)
        if not own:  # a Doppelgänger copy: the acorn goes to the cheeks or Backpack (NS-13)
            self.give_carried(s, colour)
            self._spend_copy(s, STICKY)
            return
        if colour == "b":
            self.stick_b[s] += 1
        else:
            self.stick_g[s] += 1
        if self.stick_b[s] + self.stick_g[s] >= 3:  # full: buried for free, the card leaves play
            self.bur_b[s] += self.stick_b[s]
            self.bur_g[s] += self.stick_g[s]
            self.stick_b[s] = self.stick_g[s] = 0
            self.powers[s] = tuple(p for p in self.powers[s] if p != STICKY)
            self.out_known.append(STICKY)
            self._event("sticky_full", seat=s, points=self.points(s))
            self._check_win(s)

    def _do_loot(self, s: int, act: Act) -> None:
        """Variant take_tracked_loot: a copied Sticky Fingers takes a thief's tracked acorns (NS-13)."""
        self.ap -= 1
        self.sticky_used = True
        v = act.seat
        took_b = took_g = 0
        while self.has_room(s) and self.stick_g[v]:
            self.stick_g[v] -= 1
            self.give_carried(s, "g")
            took_g += 1
        while self.has_room(s) and self.stick_b[v]:
            self.stick_b[v] -= 1
            self.give_carried(s, "b")
            took_b += 1
        self._spend_copy(s, STICKY)
        self._event("loot", seat=s, victim=v, brown=took_b, golden=took_g, ap=self.ap)

    def _do_owl(self, s: int, act: Act) -> None:
        """The Owl (0 AP, one use): scare a limb, or destroy one power (NS-13); the user's turn goes on."""
        if act.seat >= 0:
            self.lose_power(act.seat, act.power)
            self.out_known.append(act.power)
            self._event("owl", seat=s, victim=act.seat, power=act.power)
        else:
            fallen = [v for v, w in enumerate(self.where) if v != s and w != TRUNK and w // STRIDE == act.limb]
            self._event("owl", seat=s, limb=act.limb + 1, fallen=fallen)
            self.fall_all(fallen, "the Owl")
        if OWL in self.powers[s]:
            self.powers[s] = tuple(p for p in self.powers[s] if p != OWL)
            self.out_known.append(OWL)
        else:
            self.copy_spent = True

    def _do_copy(self, s: int, act: Act) -> None:
        """The Doppelgänger (0 AP): mimic another player's power (NS-13)."""
        self.copy = act.power
        self.copy_spent = False
        if act.power == SUGAR:  # a copied Sugar Rush gives its extra AP now
            self.ap += 1
            self._spend_copy(s, SUGAR)
        self._event("copy", seat=s, power=act.power)
