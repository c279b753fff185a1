"""Nutty Squirrels, 2–6 players: turns of action points on a tree of six limbs (RULINGS §3.2–3.3).

The rules read top to bottom like the rulebook: setup, the turn and its actions, claiming, gathering and
the board. Flipping and the event cards are in ``flip.py``, the powers in ``powers.py``, the start and end
of a turn and of the game in ``turn.py``; the tree and the boards both modes share in ``tree.py``. Ruling ids
(``NS-n``) mark where a line implements one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Self

from oakwood.engine import Event, InvariantError
from oakwood.engine.native import mypyc_attr

from . import actions as A
from .actions import Act
from .cards import (
    BACKPACK,
    BROKEN,
    DOPPEL,
    FLYING,
    POWERS,
    SWINGING,
    expand,
)
from .flip import Flipping
from .tree import CHEEKS, NOBODY, STRIDE, TRUNK, at, is_broken, sort_powers

if TYPE_CHECKING:
    from .game import Nutty

NO_WAY: Final = 99  # the cost of a move that is impossible
_SEATS: Final = tuple((seat,) for seat in range(6))  # the to_act tuples, built once
_ORDER: Final = A.ORDER.__getitem__
_MOVE: Final = A.MOVE
_GATHER_B: Final = A.GATHER["b"]
_GATHER_G: Final = A.GATHER["g"]
_DROP_B: Final = A.DROP["b"]
_DROP_G: Final = A.DROP["g"]
_PACK_B: Final = A.PACK["b"]
_PACK_G: Final = A.PACK["g"]
_STASH_B: Final = A.STASH["b"]
_STASH_G: Final = A.STASH["g"]
_UNSTASH_B: Final = A.UNSTASH["b"]
_UNSTASH_G: Final = A.UNSTASH["g"]
_BURY_B: Final = A.BURY["b"]
_BURY_G: Final = A.BURY["g"]
_PLACE: Final = A.PLACE
# Prebuilt log entries (the tuples ``_event`` would build) for the most frequent events: shared, never mutated.
_END_TURN_EVENTS: Final = tuple(("end_turn", {"seat": s}, None, None) for s in range(6))
_GATHER_EVENTS: Final = tuple({c: ("gather", {"seat": s, "colour": c}, None, None) for c in "bg"} for s in range(6))
_DROP_EVENTS: Final = tuple({c: ("drop", {"seat": s, "colour": c}, None, None) for c in "bg"} for s in range(6))
_MOVE_EVENTS: Final[dict[tuple[int, int, int, int, int], tuple[str, dict[str, Any], None, None]]] = {}  # filled as met


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class NuttyState(Flipping):  # and so Powers, TurnState, TreeState (one line of bases: see flip.py)
    """A multiplayer match."""

    __slots__ = ()

    def __init__(self, game: Nutty, players: int, seed: int, start: str | None = None) -> None:
        self._init_base(game, players, seed, start)
        self.solo = False
        self.cards = game.options.cards
        self._init_tree(players)
        self._init_turn_fields()
        if start is None:
            self._setup()

    # ================================================================== SETUP
    def _setup(self) -> None:
        """Shuffle, deal six limbs of five face down, acorns on cards 3 and 5 (NS-2), pick the first player."""
        deck = expand(self.cards)
        self.rng.shuffle(deck)
        self._deal(deck, setup_acorns=True)
        self.first = self.current = self.rng.randbelow(self.num_players)
        self.log(Event("setup", {"players": self.num_players, "first": self.first, "deck": len(self.deck)}))
        self._begin_turn()

    # ================================================================== THE TURN: legal actions
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (no check needed: the hook itself is the fast path)."""
        return () if self.phase == "over" else _SEATS[self.current]

    def _to_act(self) -> tuple[int, ...]:
        # The hook calls the public fast path (not an alias ``to_act = _to_act``: mypyc cannot compile one).
        return self.to_act()

    def _compute_legal(self) -> tuple[Act, ...]:
        acts = self._fools_actions() if self.phase == "fools" else self._turn_actions()
        acts.sort(key=_ORDER)
        return tuple(acts)

    def move_cost(self, seat: int, limb: int, pos: int) -> int:
        """AP to step onto a card: 1, or 2 onto a revealed Broken Branch (1 with Swinging Squirrel, NS-6)."""
        if limb < 0:
            return 1
        if is_broken(self.limbs[limb][pos]):
            return 1 if self.has(seat, SWINGING) else 2
        return 1

    def moves_from(self, seat: int) -> list[tuple[int, int]]:
        """Every card (or the trunk, limb -1) one Move or FlyingMove away (NS-13, NS-16)."""
        w = self.where[seat]
        if w == TRUNK:
            return [(limb, 0) for limb in range(6) if self.limbs[limb]]
        limb, pos = divmod(w, STRIDE)
        out = [(-1, -1) if pos == 0 else (limb, pos - 1)]
        if pos + 1 < len(self.limbs[limb]):
            out.append((limb, pos + 1))
        if self.has(seat, FLYING):  # NS-13: same position on a neighbouring limb, never onto a revealed BB
            for side in ((limb + 5) % 6, (limb + 1) % 6):
                cards = self.limbs[side]
                if pos < len(cards) and not is_broken(cards[pos]):
                    out.append((side, pos))
        return out

    def step_off_cost(self, seat: int, limb: int, pos: int) -> int:
        """The AP needed to leave a Broken Branch at (limb, pos) onto anything that is not one (NS-6)."""
        cards = self.limbs[limb]
        if pos == 0 or not is_broken(cards[pos - 1]):
            return 1
        if pos + 1 < len(cards) and not is_broken(cards[pos + 1]):
            return 1
        if self.has(seat, FLYING):
            for side in ((limb + 5) % 6, (limb + 1) % 6):
                other = self.limbs[side]
                if pos < len(other) and not is_broken(other[pos]):
                    return 1
        return NO_WAY

    def _reserve(self, seat: int) -> int:
        """AP that must stay unspent: enough to step off the Broken Branch the squirrel stands on."""
        w = self.where[seat]
        if w == TRUNK:
            return 0
        limb, pos = divmod(w, STRIDE)
        return self.step_off_cost(seat, limb, pos) if is_broken(self.limbs[limb][pos]) else 0

    def _can_move(self, seat: int, limb: int, pos: int) -> bool:
        """A move is legal if affordable and, onto a Broken Branch, if the squirrel can still step off (NS-6)."""
        cost = self.move_cost(seat, limb, pos)
        if cost > self.ap:
            return False
        if limb >= 0 and is_broken(self.limbs[limb][pos]):
            return self.ap - cost >= self.step_off_cost(seat, limb, pos)
        return True

    def _turn_actions(self) -> list[Act]:
        # The rules of ``moves_from``, ``_can_move``, ``move_cost`` and ``_reserve`` inlined (with ``has`` for
        # the seat to act, whose copy counts until spent): this runs once per simulation step.
        s = self.current
        w = self.where[s]
        ap = self.ap
        limbs = self.limbs
        mine = self.powers[s]
        copy = "" if self.copy_spent else self.copy
        swinging = SWINGING in mine or copy == SWINGING
        backpack = BACKPACK in mine or copy == BACKPACK
        # ``has_room``: two in the cheeks, one more with a Backpack (NS-11)
        room = self.cheeks_b[s] + self.cheeks_g[s] + (1 if self.pack[s] else 0) < CHEEKS + (1 if backpack else 0)
        out: list[Act] = []
        if w < 0:  # the trunk: card 1 of every limb (NS-16)
            slot = None
            spare = ap
            out.append(A.END)
            for limb in range(6):
                cards = limbs[limb]
                if cards:
                    first = cards[0]
                    if first[1] and first[0] == BROKEN:  # NS-6: only if the AP left can take it off again
                        cost = 1 if swinging else 2
                        if cost <= ap and ap - cost >= self.step_off_cost(s, limb, 0):
                            out.append(_MOVE[limb][0])
                    elif ap >= 1:
                        out.append(_MOVE[limb][0])
        else:
            limb, pos = divmod(w, STRIDE)
            cards = limbs[limb]
            slot = cards[pos]
            if slot[1] and slot[0] == BROKEN:
                spare = ap - self.step_off_cost(s, limb, pos)  # NS-6: a turn never ends on a Broken Branch
            else:
                spare = ap
                out.append(A.END)
            if not slot[1] and spare >= 1:
                out.append(A.FLIP)
            targets = [(-1, -1) if pos == 0 else (limb, pos - 1)]
            if pos + 1 < len(cards):
                targets.append((limb, pos + 1))
            if FLYING in mine or copy == FLYING:  # NS-13: same position next door, never onto a revealed BB
                for side in ((limb + 5) % 6, (limb + 1) % 6):
                    other = limbs[side]
                    if pos < len(other) and not (other[pos][1] and other[pos][0] == BROKEN):
                        targets.append((side, pos))
            for tl, tp in targets:
                if tl < 0:
                    if ap >= 1:
                        out.append(A.MOVE_TRUNK)
                    continue
                target = limbs[tl][tp]
                if target[1] and target[0] == BROKEN:
                    cost = 1 if swinging else 2
                    if cost <= ap and ap - cost >= self.step_off_cost(s, tl, tp):
                        out.append(_MOVE[tl][tp])
                elif ap >= 1:
                    out.append(_MOVE[tl][tp])
            kind = slot[0]
            if slot[1] and kind in POWERS and kind not in mine:  # NS-5
                if len(mine) < 3:
                    out.append(A.CLAIM)
                else:
                    out += [A.CLAIM_SWAP[p] for p in mine if not (p == DOPPEL and self.copy)]
            if room and slot[2]:
                out.append(_GATHER_B)
            if room and slot[3]:
                out.append(_GATHER_G)
        self._board_actions(s, w, slot, spare, room, backpack, out)
        if mine or copy:
            self._power_actions(s, w, spare, copy, out)
        return out

    def _board_actions(self, s: int, w: int, slot: Any, spare: int, room: bool, backpack: bool, out: list[Act]) -> None:
        """Drop, Backpack shuffling, and the trunk actions: Stash, Convert, Bury (``room``: ``has_room``;
        ``backpack``: whether the seat may use a Backpack)."""
        pack = self.pack[s]
        cheeks_b, cheeks_g = self.cheeks_b[s], self.cheeks_g[s]
        has_b = cheeks_b > 0 or pack == "b"
        has_g = cheeks_g > 0 or pack == "g"
        if slot is not None:  # NS-16: acorns cannot be dropped on the trunk
            if has_b:
                out.append(_DROP_B)
            if has_g:
                out.append(_DROP_G)
        if pack:
            if cheeks_b + cheeks_g < CHEEKS:
                out.append(A.UNPACK)
        elif backpack:
            if cheeks_b:
                out.append(_PACK_B)
            if cheeks_g:
                out.append(_PACK_G)
        if w != TRUNK:
            return
        if has_b:
            out.append(_STASH_B)
        if has_g:
            out.append(_STASH_G)
        nest_b, nest_g = self.nest_b[s], self.nest_g[s]
        if room:
            if nest_b:
                out.append(_UNSTASH_B)
            if nest_g:
                out.append(_UNSTASH_G)
        if spare >= 1:
            if nest_b >= 5 and self.supply_g > 0:
                out.append(A.CONVERT)
            if has_b or nest_b:
                out.append(_BURY_B)
            if has_g or nest_g:
                out.append(_BURY_G)

    def _fools_actions(self) -> list[Act]:
        return [A.EXCHANGE[place] for place in self.fools_places(self.current)]

    # ================================================================== THE TURN: applying an action
    def _apply(self, seat: int, action: Any) -> None:
        self._cache, self._cache_seat = None, NOBODY
        _HANDLERS[action.verb](self, seat, action)

    def _do_end(self, s: int, act: Act) -> None:
        if self.record_events:
            self._log = (_END_TURN_EVENTS[s], self._log)
        self._end_turn()

    def _do_move(self, s: int, act: Act) -> None:
        w = self.where[s]
        if act.limb < 0:
            cost = 1
            self.ap -= 1
            self.where[s] = TRUNK
        else:
            cost = self.move_cost(s, act.limb, act.pos)
            self.ap -= cost
            flying = w != TRUNK and w // STRIDE != act.limb
            if flying:
                self._spend_copy(s, FLYING)
            elif is_broken(self.limbs[act.limb][act.pos]):
                self._spend_copy(s, SWINGING)
            self.where[s] = at(act.limb, act.pos)
        if self.record_events:
            key = (s, act.limb, act.pos, cost, self.ap)
            event = _MOVE_EVENTS.get(key)
            if event is None:
                public = {"seat": s, "to": _PLACE[act.limb][act.pos], "cost": cost, "ap": self.ap}
                event = _MOVE_EVENTS[key] = ("move", public, None, None)
            self._log = (event, self._log)

    # Flip and the event cards: flip.py. Lasso, Spittoon, Sticky Fingers, Owl, Doppelgänger: powers.py.

    # ------------------------------------------------------------------ claiming (NS-5)
    def _do_claim(self, s: int, act: Act) -> None:
        limb, pos = divmod(self.where[s], STRIDE)
        kind, _, brown, golden = self.limbs[limb][pos]
        if act.power:  # all three slots full: swap, nothing shifts, the deck is untouched
            self.lose_power(s, act.power)  # a Backpack's acorn may land on this card (NS-11)
            _, _, brown, golden = self.limbs[limb][pos]
            self.limbs[limb][pos] = (act.power, True, brown, golden)
            self.powers[s] = sort_powers((*self.powers[s], kind))
            self._event("claim", seat=s, power=kind, returned=act.power)
            return
        self.remove_card(limb, pos)
        self.powers[s] = sort_powers((*self.powers[s], kind))
        self._event("claim", seat=s, power=kind)
        self._after_tree_change(s, limb, False)

    # ------------------------------------------------------------------ gathering and the board
    def _do_gather(self, s: int, act: Act) -> None:
        limb, pos = divmod(self.where[s], STRIDE)
        self.add_to_card(limb, pos, -(act.colour == "b"), -(act.colour == "g"))
        self.give_carried(s, act.colour)
        if self.record_events:
            self._log = (_GATHER_EVENTS[s][act.colour], self._log)

    def _do_drop(self, s: int, act: Act) -> None:
        limb, pos = divmod(self.where[s], STRIDE)
        self.take_carried(s, act.colour)
        self.add_to_card(limb, pos, act.colour == "b", act.colour == "g")
        if self.record_events:
            self._log = (_DROP_EVENTS[s][act.colour], self._log)

    def _do_pack(self, s: int, act: Act) -> None:
        if act.colour == "b":
            self.cheeks_b[s] -= 1
        else:
            self.cheeks_g[s] -= 1
        self.pack[s] = act.colour
        self._event("pack", seat=s, colour=act.colour)

    def _do_unpack(self, s: int, act: Act) -> None:
        colour = self.pack[s]
        self.pack[s] = ""
        self.give_carried(s, colour)
        self._event("unpack", seat=s, colour=colour)

    def _do_stash(self, s: int, act: Act) -> None:
        self.take_carried(s, act.colour)
        if act.colour == "b":
            self.nest_b[s] += 1
        else:
            self.nest_g[s] += 1
        self._event("stash", seat=s, colour=act.colour)

    def _do_unstash(self, s: int, act: Act) -> None:
        if act.colour == "b":
            self.nest_b[s] -= 1
        else:
            self.nest_g[s] -= 1
        self.give_carried(s, act.colour)
        self._event("unstash", seat=s, colour=act.colour)

    def _do_convert(self, s: int, act: Act) -> None:
        """Convert (1 AP, on the trunk): five brown from the nest for a golden from the supply."""
        self.ap -= 1
        self.nest_b[s] -= 5
        self.supply_b += 5
        self.supply_g -= 1
        self.nest_g[s] += 1
        self._event("convert", seat=s, ap=self.ap)

    def _do_bury(self, s: int, act: Act) -> None:
        """Bury (1 AP per acorn, on the trunk), from the cheeks, then the Backpack, then the nest."""
        self.ap -= 1
        colour = act.colour
        in_cheeks = self.cheeks_b[s] if colour == "b" else self.cheeks_g[s]
        if in_cheeks or self.pack[s] == colour:
            source = "cheeks" if in_cheeks else "backpack"
            self.take_carried(s, colour)
        elif colour == "b":
            self.nest_b[s] -= 1
            source = "nest"
        else:
            self.nest_g[s] -= 1
            source = "nest"
        if colour == "b":
            self.bur_b[s] += 1
        else:
            self.bur_g[s] += 1
        self._event("bury", seat=s, colour=colour, source=source, points=self.points(s), ap=self.ap)
        self._check_win(s)

    # ================================================================== END OF A TURN, END OF THE GAME: turn.py

    # ================================================================== results
    def _scores(self) -> list[float]:
        return [float(self.points(s)) for s in range(self.num_players)]

    def _winners(self) -> list[int]:
        return list(self.win_seats)

    # ================================================================== information
    def _observe(self, seat: int | None) -> dict[str, Any]:
        obs = self.observe_tree(seat)
        phase = self.phase
        # Key by key into the tree's dict (no temporary dict); the decision's text is its value (``str`` of it).
        obs["decision"] = self._decision().value
        obs["to_act"] = list(self._to_act())
        obs["phase"] = phase
        obs["current"] = self.current
        obs["first"] = self.first
        obs["round"] = self.round_no
        obs["ap"] = self.ap
        obs["sticky_used"] = self.sticky_used
        obs["spittoon_used"] = self.spit_used
        obs["copy"] = self.copy
        obs["copy_spent"] = self.copy_spent
        obs["end_triggered"] = self.end_triggered
        obs["turns_left"] = self.turns_left
        obs["max_rounds"] = self.opts.max_rounds
        obs["fools_places"] = self.fools_places(self.current) if phase == "fools" else []
        return obs

    def _clone(self) -> Self:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        self._copy_tree_into(twin)
        twin.current, twin.ap, twin.first, twin.round_no = self.current, self.ap, self.first, self.round_no
        twin.sticky_used, twin.spit_used = self.sticky_used, self.spit_used
        twin.copy, twin.copy_spent = self.copy, self.copy_spent
        twin.phase, twin.turns_left, twin.end_triggered = self.phase, self.turns_left, self.end_triggered
        twin.win_seats = self.win_seats[:]
        twin._cache, twin._cache_seat = self._cache, self._cache_seat
        return twin

    def _check_invariants(self) -> None:
        self.check_conservation()
        if self.phase != "over":
            for v, w in enumerate(self.where):
                if v != self.current and w != TRUNK and is_broken(self.limbs[w // STRIDE][w % STRIDE]):
                    raise InvariantError(f"P{v + 1} rests on a Broken Branch between turns (NS-6)")
        for v, w in enumerate(self.where):
            if w != TRUNK and (w // STRIDE >= 6 or w % STRIDE >= len(self.limbs[w // STRIDE])):
                raise InvariantError(f"P{v + 1} stands on a card that does not exist")
        if self.ap < 0:
            raise InvariantError("negative action points")


#: Each verb's handler, looked up once per action instead of building its method name.
_HANDLERS: Final[dict[str, Any]] = {
    verb: getattr(NuttyState, "_do_" + verb.replace(" ", "_"))
    for verb in dict.fromkeys(a.verb for a in A.ALL_ACTIONS)
    if hasattr(NuttyState, "_do_" + verb.replace(" ", "_"))
}
