"""Nutty Squirrels, 2–6 players: turns of action points on a tree of six limbs (RULINGS §3.2–3.3).

The rules read top to bottom like the rulebook: setup, the turn and its actions, flipping and the events,
claiming, the powers, the end of a turn, the end of the game. Ruling ids (``NS-n``) mark where a line
implements one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from oakwood.engine import Decision, Event, InvariantError, Rng

from . import actions as A
from .actions import Act, place_name
from .cards import (
    ARBORIST,
    BACKPACK,
    BROKEN,
    DOPPEL,
    EVENTS,
    FLYING,
    FOOLS,
    LASSO,
    LEAF_ACORNS,
    OWL,
    POWERS,
    SAPPY,
    SPITTOON,
    STICKY,
    SUGAR,
    SWINGING,
    WIND,
    expand,
)
from .tree import CHEEKS, STRIDE, TRUNK, TreeState, at, is_broken, sort_powers

if TYPE_CHECKING:
    from .game import Nutty

WIN_POINTS = 20
BASE_AP = 3
NO_WAY = 99  # the cost of a move that is impossible


class NuttyState(TreeState):
    """A multiplayer match."""

    current: int
    ap: int
    first: int
    round_no: int
    sticky_used: bool
    spit_used: bool
    copy: str  # the power a Doppelgänger copies this turn ("" when none)
    copy_spent: bool  # single_use copies, and a copied Owl, are spent once used
    phase: str  # "turn", "fools" (the active player picks the golden Fool's Gold takes) or "over"
    turns_left: int  # -1, or how many turns follow the current one before the game ends (NS-14/15)
    end_triggered: bool
    win_seats: list[int]
    _cache: list[Act] | None

    def __init__(self, game: Nutty, players: int, seed: int, start: str | None = None) -> None:
        self._init_base(game, players, seed, start)
        self.solo = False
        self.cards = game.options.cards
        self._init_tree(players)
        self._init_turn_fields()
        if start is None:
            self._setup()

    def _init_turn_fields(self) -> None:
        self.current = self.first = 0
        self.ap = 0
        self.round_no = 1
        self.sticky_used = self.spit_used = self.copy_spent = False
        self.copy = ""
        self.phase = "turn"
        self.turns_left = -1
        self.end_triggered = False
        self.win_seats = []
        self._cache = None

    # ================================================================== SETUP
    def _setup(self) -> None:
        """Shuffle, deal six limbs of five face down, acorns on cards 3 and 5 (NS-2), pick the first player."""
        deck = expand(self.cards)
        self.rng.shuffle(deck)
        self._deal(deck, setup_acorns=True)
        self.first = self.current = self.rng.randbelow(self.num_players)
        self.log(Event("setup", {"players": self.num_players, "first": self.first, "deck": len(self.deck)}))
        self._begin_turn()

    # ================================================================== options and helpers
    @property
    def opts(self) -> Any:
        """The game's options."""
        return self.game.options

    def has(self, seat: int, power: str) -> bool:
        """Whether ``seat`` may use ``power`` now: on its board, or copied this turn by the Doppelgänger."""
        return power in self.powers[seat] or (
            seat == self.current and self.copy == power and not self.copy_spent
        )

    def _has_copy(self, seat: int, power: str) -> bool:
        return seat == self.current and self.copy == power

    def _spend_copy(self, seat: int, power: str) -> None:
        """A single_use copy ends once the copied power is used (NS-13); a copied Owl always does."""
        copied = power not in self.powers[seat] and self.copy == power
        if copied and (power == OWL or self.opts.doppelganger_duration == "single_use"):
            self.copy_spent = True

    def capacity(self, seat: int) -> int:
        """Carrying limit: two in the cheeks, one more with a Backpack (NS-11)."""
        return CHEEKS + (1 if self.has(seat, BACKPACK) else 0)

    def has_room(self, seat: int) -> bool:
        """Whether the squirrel can take one more acorn."""
        return self.carried(seat) < self.capacity(seat)

    def _event(self, kind: str, **public: Any) -> None:
        if self.record_events:
            self.log(Event(kind, public))

    # ================================================================== THE TURN: legal actions
    def _to_act(self) -> tuple[int, ...]:
        return () if self.phase == "over" else (self.current,)

    def _decision(self) -> Decision:
        return Decision.NONE if self.phase == "over" else Decision.TURN

    def _is_terminal(self) -> bool:
        return self.phase == "over"

    def _legal_actions(self, seat: int) -> list[Act]:
        if self._cache is None:
            acts = self._fools_actions() if self.phase == "fools" else self._turn_actions()
            acts.sort(key=A.ORDER.__getitem__)
            self._cache = acts
        return self._cache

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
        s = self.current
        w = self.where[s]
        spare = self.ap - self._reserve(s)
        out: list[Act] = []
        slot = None
        if w != TRUNK:
            limb, pos = divmod(w, STRIDE)
            slot = self.limbs[limb][pos]
        if slot is None or not is_broken(slot):
            out.append(A.END)  # NS-6: a turn never ends on a Broken Branch
        if slot is not None and not slot[1] and spare >= 1:
            out.append(A.FLIP)
        for tl, tp in self.moves_from(s):
            if self._can_move(s, tl, tp):
                out.append(A.MOVE_TRUNK if tl < 0 else A.MOVE[tl][tp])
        if slot is not None:
            kind = slot[0]
            if slot[1] and kind in POWERS and kind not in self.powers[s]:  # NS-5
                if len(self.powers[s]) < 3:
                    out.append(A.CLAIM)
                else:
                    out += [A.CLAIM_SWAP[p] for p in self.powers[s] if not (p == DOPPEL and self.copy)]
            room = self.has_room(s)
            if room and slot[2]:
                out.append(A.GATHER["b"])
            if room and slot[3]:
                out.append(A.GATHER["g"])
        self._board_actions(s, w, slot, spare, out)
        self._power_actions(s, w, spare, out)
        return out

    def _board_actions(self, s: int, w: int, slot: Any, spare: int, out: list[Act]) -> None:
        """Drop, Backpack shuffling, and the trunk actions: Stash, Convert, Bury."""
        pack = self.pack[s]
        has_b = self.cheeks_b[s] > 0 or pack == "b"
        has_g = self.cheeks_g[s] > 0 or pack == "g"
        if slot is not None:  # NS-16: acorns cannot be dropped on the trunk
            if has_b:
                out.append(A.DROP["b"])
            if has_g:
                out.append(A.DROP["g"])
        if not pack and self.has(s, BACKPACK):
            if self.cheeks_b[s]:
                out.append(A.PACK["b"])
            if self.cheeks_g[s]:
                out.append(A.PACK["g"])
        if pack and self.cheeks_b[s] + self.cheeks_g[s] < CHEEKS:
            out.append(A.UNPACK)
        if w != TRUNK:
            return
        if has_b:
            out.append(A.STASH["b"])
        if has_g:
            out.append(A.STASH["g"])
        if self.has_room(s):
            if self.nest_b[s]:
                out.append(A.UNSTASH["b"])
            if self.nest_g[s]:
                out.append(A.UNSTASH["g"])
        if spare >= 1:
            if self.nest_b[s] >= 5 and self.supply_g > 0:
                out.append(A.CONVERT)
            if has_b or self.nest_b[s]:
                out.append(A.BURY["b"])
            if has_g or self.nest_g[s]:
                out.append(A.BURY["g"])

    def _power_actions(self, s: int, w: int, spare: int, out: list[Act]) -> None:
        """Lasso, Spittoon, Sticky Fingers, Owl and Doppelgänger (NS-11 … NS-13)."""
        if spare >= 1 and w != TRUNK and self.has(s, LASSO):
            limb, pos = divmod(w, STRIDE)
            for sl, sp in self.lasso_sources(s, limb, pos):
                src = self.limbs[sl][sp]
                if src[2]:
                    out.append(A.LASSO[sl][sp]["b"])
                if src[3]:
                    out.append(A.LASSO[sl][sp]["g"])
        if spare >= 1 and not self.spit_used and self.has(s, SPITTOON):
            for sl, cards in enumerate(self.limbs):
                for sp, src in enumerate(cards):
                    if src[2]:
                        out.append(A.SPIT[sl][sp]["b"])
                    if src[3]:
                        out.append(A.SPIT[sl][sp]["g"])
        if spare >= 1 and not self.sticky_used and self.has(s, STICKY):
            self._sticky_actions(s, w, out)
        if self.has(s, OWL):
            others = [v for v in range(self.num_players) if v != s and self.where[v] != TRUNK]
            limbs = {self.where[v] // STRIDE for v in others}
            if w == TRUNK:
                out += [A.OWL_LIMB[limb] for limb in sorted(limbs)]
            elif w // STRIDE in limbs:
                out.append(A.OWL_LIMB[w // STRIDE])
            for v in range(self.num_players):
                if v != s:
                    out += [A.OWL_POWER[v][p] for p in self.powers[v]]
        if DOPPEL in self.powers[s] and not self.copy:
            mine = self.powers[s]
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

    def _fools_actions(self) -> list[Act]:
        return [A.EXCHANGE[place] for place in self.fools_places(self.current)]

    # ================================================================== THE TURN: applying an action
    def _apply(self, seat: int, action: Any) -> None:
        self._cache = None
        act: Act = action
        verb = act.verb
        handler = getattr(self, "_do_" + verb.replace(" ", "_"))
        handler(seat, act)

    def _do_end(self, s: int, act: Act) -> None:
        self._event("end_turn", seat=s)
        self._end_turn()

    def _do_move(self, s: int, act: Act) -> None:
        w = self.where[s]
        if act.limb < 0:
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
        self._event("move", seat=s, to=str(act)[5:], ap=self.ap)

    def _do_flip(self, s: int, act: Act) -> None:
        """Flip (1 AP): reveal the card underfoot and resolve it at once."""
        self.ap -= 1
        limb, pos = divmod(self.where[s], STRIDE)
        kind, _, brown, golden = self.limbs[limb][pos]
        self.limbs[limb][pos] = (kind, True, brown, golden)
        self._event("flip", seat=s, at=place_name(limb, pos), card=kind)
        ends = self._resolve(s, limb, pos, auto_fools=False)
        self._after_tree_change(s, limb, ends)

    def _after_tree_change(self, s: int, limb: int, ends: bool) -> None:
        """Breaks, the end trigger, and ending the turn if the active squirrel fell (NS-6, NS-14)."""
        fallen = self.check_break(limb, self.opts.break_tokens_beyond == "slide_to_break")
        if fallen:
            self._event("fall", seats=fallen, cause="break")
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
            fallen = self.seats_at(at(limb, pos))
            for v in fallen:
                self.fall(v)
            self._event("fall", seats=fallen, cause="broken branch")
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
                    self.fall(v)
                    fallen.append(v)
                else:
                    self.where[v] = at(limb, dest)
        if fallen:
            self._event("fall", seats=fallen, cause="wind gust")
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
                    for v in fallen:
                        self.fall(v)
                    if fallen:
                        self._event("fall", seats=fallen, cause="broken branch")
                    ends = ends or s in fallen
            for i in reversed(revealed):  # other events leave without effect, outer end first
                if cards[i][0] in EVENTS and cards[i][0] != BROKEN:
                    self.out_known.append(self.remove_card(limb, i))
                    if i < own:
                        own -= 1
        self.out_known.append(self.remove_card(limb, own))
        return ends

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
        self._event("gather", seat=s, colour=act.colour)

    def _take_carried(self, s: int, colour: str) -> None:
        """Take one acorn of ``colour`` from the cheeks, else from the Backpack."""
        if colour == "b" and self.cheeks_b[s]:
            self.cheeks_b[s] -= 1
        elif colour == "g" and self.cheeks_g[s]:
            self.cheeks_g[s] -= 1
        else:
            self.pack[s] = ""

    def _do_drop(self, s: int, act: Act) -> None:
        limb, pos = divmod(self.where[s], STRIDE)
        self._take_carried(s, act.colour)
        self.add_to_card(limb, pos, act.colour == "b", act.colour == "g")
        self._event("drop", seat=s, colour=act.colour)

    def _do_pack(self, s: int, act: Act) -> None:
        if act.colour == "b":
            self.cheeks_b[s] -= 1
        else:
            self.cheeks_g[s] -= 1
        self.pack[s] = act.colour

    def _do_unpack(self, s: int, act: Act) -> None:
        colour = self.pack[s]
        self.pack[s] = ""
        self.give_carried(s, colour)

    def _do_stash(self, s: int, act: Act) -> None:
        self._take_carried(s, act.colour)
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
        self._event("convert", seat=s)

    def _do_bury(self, s: int, act: Act) -> None:
        """Bury (1 AP per acorn, on the trunk), from the cheeks, then the Backpack, then the nest."""
        self.ap -= 1
        colour = act.colour
        if (self.cheeks_b[s] if colour == "b" else self.cheeks_g[s]) or self.pack[s] == colour:
            self._take_carried(s, colour)
        elif colour == "b":
            self.nest_b[s] -= 1
        else:
            self.nest_g[s] -= 1
        if colour == "b":
            self.bur_b[s] += 1
        else:
            self.bur_g[s] += 1
        self._event("bury", seat=s, colour=colour, points=self.points(s))
        self._check_win(s)

    # ------------------------------------------------------------------ powers (NS-11 … NS-13)
    def _do_lasso(self, s: int, act: Act) -> None:
        """The Lasso (1 AP): pull one acorn from an adjacent card onto this one."""
        self.ap -= 1
        limb, pos = divmod(self.where[s], STRIDE)
        brown, golden = int(act.colour == "b"), int(act.colour == "g")
        self.add_to_card(act.limb, act.pos, -brown, -golden)
        self.add_to_card(limb, pos, brown, golden)
        self._spend_copy(s, LASSO)
        self._event("lasso", seat=s, source=place_name(act.limb, act.pos), colour=act.colour)

    def _do_spit(self, s: int, act: Act) -> None:
        """The Spittoon (1 AP, once a turn): one acorn lying on any card into the nest (NS-11)."""
        self.ap -= 1
        self.spit_used = True
        brown, golden = int(act.colour == "b"), int(act.colour == "g")
        self.add_to_card(act.limb, act.pos, -brown, -golden)
        self.nest_b[s] += brown
        self.nest_g[s] += golden
        self._spend_copy(s, SPITTOON)
        self._event("spit", seat=s, source=place_name(act.limb, act.pos), colour=act.colour)

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
            self._event("steal", seat=s, victim=v, power=act.power)
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
        self._event("steal", seat=s, victim=v, colour=colour, source="nest" if from_nest else "cheeks")
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
        while self.has_room(s) and self.stick_g[v]:
            self.stick_g[v] -= 1
            self.give_carried(s, "g")
        while self.has_room(s) and self.stick_b[v]:
            self.stick_b[v] -= 1
            self.give_carried(s, "b")
        self._spend_copy(s, STICKY)
        self._event("loot", seat=s, victim=v)

    def _do_owl(self, s: int, act: Act) -> None:
        """The Owl (0 AP, one use): scare a limb, or destroy one power (NS-13); the user's turn goes on."""
        if act.seat >= 0:
            self.lose_power(act.seat, act.power)
            self.out_known.append(act.power)
            self._event("owl", seat=s, victim=act.seat, power=act.power)
        else:
            fallen = [v for v, w in enumerate(self.where) if v != s and w != TRUNK and w // STRIDE == act.limb]
            for v in fallen:
                self.fall(v)
            self._event("owl", seat=s, limb=act.limb + 1, fallen=fallen)
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

    # ================================================================== END OF A TURN
    def _end_turn(self) -> None:
        """Discard applied Sappy Feet, end a Doppelgänger copy, pass clockwise; the end trigger countdown."""
        s = self.current
        self.out_known += [SAPPY] * self.sappy_now[s]
        self.sappy_now[s] = 0
        if self.copy:  # NS-13: the Doppelgänger leaves play at the end of the turn it was used in
            if self.copy == BACKPACK and BACKPACK not in self.powers[s]:  # a claimed real one keeps its acorn
                self.rescue_backpack(s)
            self.copy = ""
            self.copy_spent = False
            self.powers[s] = tuple(p for p in self.powers[s] if p != DOPPEL)
            self.out_known.append(DOPPEL)
        self.sticky_used = self.spit_used = False
        if self.turns_left == 0:
            self._finish("final round over")
            return
        if self.turns_left > 0:
            self.turns_left -= 1
        self.current = (s + 1) % self.num_players
        if self.current == self.first:
            self.round_no += 1
            if self.round_no > self.opts.max_rounds:
                self._finish("round limit")
                return
        self._begin_turn()

    def _begin_turn(self) -> None:
        """AP = 3 + Sugar Rush − Sappy Feet, at least 0 (NS-9)."""
        s = self.current
        self.sappy_now[s] = self.sappy_next[s]
        self.sappy_next[s] = 0
        self.ap = max(0, BASE_AP + (1 if SUGAR in self.powers[s] else 0) - self.sappy_now[s])
        self._event("turn", seat=s, ap=self.ap, round=self.round_no)

    def _rest_of_round(self, s: int) -> int:
        """How many turns of the current round follow seat ``s``'s turn."""
        return (self.first - 1 - s) % self.num_players

    def _check_end_trigger(self, s: int) -> None:
        """NS-14: the last face-down card revealed: finish the round, then one more turn each."""
        if self.end_triggered or self.phase == "over":
            return
        if self.face_down_left() or (self.opts.end_trigger == "all_cards_revealed" and self.deck):
            return
        self.end_triggered = True
        left = self._rest_of_round(s) + self.num_players
        self.turns_left = left if self.turns_left < 0 else min(self.turns_left, left)
        self._event("end_triggered", seat=s, turns_left=self.turns_left)

    def _check_win(self, s: int) -> None:
        """NS-15: 20 buried points win at once (or, as a variant, at the end of the round)."""
        if self.points(s) < WIN_POINTS or self.phase == "over":
            return
        if self.opts.win_at_20 == "immediate":
            self.win_seats = [s]
            self.phase = "over"
            self._event("game_over", winners=[s], reason="20 points")
            return
        left = self._rest_of_round(s)
        self.turns_left = left if self.turns_left < 0 else min(self.turns_left, left)

    def tie_key(self, seat: int) -> tuple[int, int, int]:
        """Points, then golden acorns (NS-15 scope), then the value of unburied acorns."""
        golden = self.bur_g[seat]
        if self.opts.tb_golden_scope == "all_possessed":
            golden += self.cheeks_g[seat] + self.nest_g[seat] + self.stick_g[seat] + (self.pack[seat] == "g")
        loose = self.cheeks_b[seat] + self.nest_b[seat] + self.stick_b[seat] + (self.pack[seat] == "b")
        loose += 5 * (self.cheeks_g[seat] + self.nest_g[seat] + self.stick_g[seat] + (self.pack[seat] == "g"))
        return (self.points(seat), golden, loose)

    def _finish(self, reason: str) -> None:
        keys = [self.tie_key(s) for s in range(self.num_players)]
        best = max(keys)
        self.win_seats = [s for s in range(self.num_players) if keys[s] == best]
        self.phase = "over"
        self._event("game_over", winners=self.win_seats, reason=reason)

    # ================================================================== results
    def _scores(self) -> list[float]:
        return [float(self.points(s)) for s in range(self.num_players)]

    def _winners(self) -> list[int]:
        return list(self.win_seats)

    # ================================================================== information
    def _observe(self, seat: int | None) -> dict[str, Any]:
        obs = self.observe_tree(seat)
        obs.update(
            {
                "decision": str(self._decision()),
                "to_act": list(self._to_act()),
                "phase": self.phase,
                "current": self.current,
                "first": self.first,
                "round": self.round_no,
                "ap": self.ap,
                "sticky_used": self.sticky_used,
                "spittoon_used": self.spit_used,
                "copy": self.copy,
                "copy_spent": self.copy_spent,
                "end_triggered": self.end_triggered,
                "turns_left": self.turns_left,
                "max_rounds": self.opts.max_rounds,
                "fools_places": self.fools_places(self.current) if self.phase == "fools" else [],
            }
        )
        return obs

    def _determinize(self, seat: int, rng: Rng) -> Self:
        twin = self._clone()
        self.resample_hidden(twin, rng)
        twin._cache = None
        return twin

    def _clone(self) -> Self:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        self._copy_tree_into(twin)
        twin.current, twin.ap, twin.first, twin.round_no = self.current, self.ap, self.first, self.round_no
        twin.sticky_used, twin.spit_used = self.sticky_used, self.spit_used
        twin.copy, twin.copy_spent = self.copy, self.copy_spent
        twin.phase, twin.turns_left, twin.end_triggered = self.phase, self.turns_left, self.end_triggered
        twin.win_seats = self.win_seats[:]
        twin._cache = self._cache
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

    def to_notation(self) -> str:
        from .notation import write

        return write(self)

    def _why_illegal(self, seat: int, action: Any) -> str:
        from .explain import why_illegal

        return why_illegal(self, seat, action)

    # ================================================================== notation (the turn fields)
    def notation_fields(self) -> list[str]:
        """The multiplayer turn fields of the notation (see ``notation.py``)."""
        copy = (self.copy + ("!" if self.copy_spent else "")) if self.copy else "-"
        win = ",".join(str(s + 1) for s in self.win_seats) or "-"
        return [
            f"turn={self.current + 1}.{self.ap}.{self.first + 1}.{self.round_no}",
            f"used={int(self.sticky_used)}.{int(self.spit_used)}",
            f"copy={copy}",
            f"end={int(self.end_triggered)}.{self.turns_left}",
            f"phase={self.phase}",
            f"win={win}",
        ]

    def read_fields(self, fields: dict[str, str]) -> None:
        """Read the turn fields written by :meth:`notation_fields` (removing them from ``fields``)."""
        from .notation import bad, need, read_int

        n = self.num_players
        text = need(fields, "turn")
        parts = text.split(".")
        if len(parts) != 4:
            raise bad("expected current.ap.first.round", "turn", text)
        current, ap, first, round_no = (read_int(p, "turn") for p in parts)
        if not (1 <= current <= n and 1 <= first <= n and ap >= 0 and round_no >= 1):
            raise bad("seat numbers run 1..players, ap ≥ 0, round ≥ 1", "turn", text)
        self.current, self.ap, self.first, self.round_no = current - 1, ap, first - 1, round_no
        text = need(fields, "used")
        if text not in ("0.0", "0.1", "1.0", "1.1"):
            raise bad("expected sticky.spittoon flags like 0.1", "used", text)
        self.sticky_used, self.spit_used = text[0] == "1", text[2] == "1"
        text = need(fields, "copy")
        self.copy_spent = text.endswith("!")
        self.copy = "" if text == "-" else text.rstrip("!")
        if self.copy and (self.copy not in POWERS or self.copy == DOPPEL):
            raise bad("expected - or a copied power code (with ! when spent)", "copy", text)
        text = need(fields, "end")
        flag, sep, left = text.partition(".")
        if flag not in ("0", "1") or not sep:
            raise bad("expected triggered.turns_left like 1.3 or 0.-1", "end", text)
        self.end_triggered, self.turns_left = flag == "1", read_int(left, "end")
        text = need(fields, "phase")
        if text not in ("turn", "fools", "over"):
            raise bad("expected turn, fools or over", "phase", text)
        self.phase = text
        text = need(fields, "win")
        seats = [] if text == "-" else [read_int(p, "win") - 1 for p in text.split(",")]
        if any(not 0 <= s < n for s in seats):
            raise bad("winner seats run 1..players", "win", text)
        self.win_seats = seats
        self._cache = None
