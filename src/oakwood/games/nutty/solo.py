"""Nutty Squirrels solo (RULINGS NS-17): no action points, acorns as currency, a market of four powers.

One squirrel, one seat (``players=1``). Moving outward onto a revealed card costs a point; landing on a
face-down card flips it at once; the Owl must be bribed; Sticky Fingers stays on the tree and picks the
squirrel's pocket every time it lands there. The game ends at 20 points (a win), on an unpaid Owl (a loss),
when nothing is left to gain (``reach.py``), or when the player ends it. Which acorns pay is in ``payment.py``.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, Self

from oakwood.engine import InvalidOptionError, InvariantError
from oakwood.engine.native import mypyc_attr

from . import actions as A
from . import payment, reach
from .actions import Act, place_name
from .cards import (
    ARBORIST,
    BACKPACK,
    BROKEN,
    BROWN_TOTAL,
    EVENTS,
    FLYING,
    FOOLS,
    GOLDEN_TOTAL,
    KINDS,
    LASSO,
    LEAF_ACORNS,
    LIMB_LENGTH,
    MARKET,
    OWL,
    SOLO_KEEP,
    SOLO_KEEP_WITH_EVENTS,
    STICKY,
    SWINGING,
    TREE_SIZE,
    WIND,
    composition,
    expand,
)
from .options import NuttyOptions
from .payment import MOVE_COST, PRICE
from .tree import CHEEKS, NOBODY, STRIDE, TRUNK, WIN_POINTS, TreeState, at, is_broken, sort_powers

if TYPE_CHECKING:
    from .game import Nutty


_PACK_POINTS: Final = {"": 0, "b": 1, "g": 5}  # what the Backpack holds, in points
#: The least action limit the options allow: fewer actions never reach the limit, so it is not read before.
_LIMIT_FLOOR: Final[int] = next(f for f in fields(NuttyOptions) if f.name == "solo_max_actions").metadata["minimum"]
_MOVE: Final = A.MOVE
_ORDER: Final = A.ORDER.__getitem__
_KIND: Final = itemgetter(0)  # a slot's kind
assert TREE_SIZE == 6 * LIMB_LENGTH == 30, "SoloState._setup slices six limbs of five literally"
_GATHER_B: Final = A.GATHER["b"]
_GATHER_G: Final = A.GATHER["g"]
_DROP_B: Final = A.DROP["b"]
_DROP_G: Final = A.DROP["g"]
_STASH_B: Final = A.STASH["b"]
_STASH_G: Final = A.STASH["g"]
_UNSTASH_B: Final = A.UNSTASH["b"]
_UNSTASH_G: Final = A.UNSTASH["g"]
_BURY_B: Final = A.BURY["b"]
_BURY_G: Final = A.BURY["g"]
_MOVE_TRUNK: Final = A.MOVE_TRUNK
_END_GAME: Final = A.END_GAME
# Prebuilt log entries (the tuples ``_event`` would build), shared and never mutated: a free move, a flip.
_TRUNK_MOVE_EVENT: Final = ("move", {"seat": 0, "to": "trunk", "paid": 0}, None, None)
_FREE_MOVE_EVENTS: Final = [
    [("move", {"seat": 0, "to": A.PLACE[limb][pos], "paid": 0}, None, None) for pos in range(LIMB_LENGTH)]
    for limb in range(6)
]
# Gathering and dropping, by colour.
_GATHER_EVENTS: Final = {c: ("gather", {"seat": 0, "colour": c}, None, None) for c in A.COLOURS}
_DROP_EVENTS: Final = {c: ("drop", {"seat": 0, "colour": c}, None, None) for c in A.COLOURS}
# By limb, position and kind: three plain lookups cost less than hashing a (limb, position, kind) key.
_FLIP_EVENTS: Final[list[list[dict[str, tuple[str, dict[str, Any], None, None]]]]] = [
    [
        {kind: ("flip", {"seat": 0, "at": A.PLACE[limb][pos], "card": kind}, None, None) for kind in KINDS}
        for pos in range(LIMB_LENGTH)
    ]
    for limb in range(6)
]


@cache
def _solo_split(
    text: str, keep_events: bool
) -> tuple[tuple[tuple[str, bool, int, int], ...], tuple[str, ...], tuple[str, ...], tuple[Any, ...]]:
    """NS-17 setup, before the shuffle: the kept cards in kind order as face-down slots without acorns (the
    tree's slot tuples, shared by every game: they are immutable), the box, the market and the ``setup`` log
    entry (shared and never mutated, like the prebuilt events above), per composition option ``text``:
    computed once per composition, not once per game."""
    keep = SOLO_KEEP_WITH_EVENTS if keep_events else SOLO_KEEP
    deck: list[str] = []
    box: list[str] = []
    market: list[str] = []
    for kind in expand(composition(text)):
        (deck if kind in keep else box).append(kind)
    for power in MARKET:
        if power in box:
            box.remove(power)
            market.append(power)
    setup = {"players": 1, "deck": len(deck) - TREE_SIZE, "market": market}
    return tuple((kind, False, 0, 0) for kind in deck), tuple(box), tuple(market), ("setup", setup, None, None)


#: The legal actions of every fresh solo game: on the trunk with nothing to pay and six full face-down limbs,
#: the player may only step onto a card 1 (for free: it is face down) or end the game. ``_actions`` would
#: list exactly these (a test checks it); a four-step random game would otherwise spend a tenth of its
#: time listing them.
_FIRST_LEGAL: Final[tuple[Act, ...]] = tuple(
    sorted([A.END_GAME, *(A.MOVE[limb][0] for limb in range(6))], key=A.ORDER.__getitem__)
)


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class SoloState(TreeState):
    """A solo game (seat 0)."""

    __slots__ = ("actions_taken", "result")

    # "play"; "fools" (the player picks the golden Fool's Gold takes, NS-8); "bribe" (the player picks the
    # acorns that bribe a revealed Owl, NS-17k); "over"
    phase: str
    result: str  # "", "won", "lost" (unpaid Owl), "ended" (no moves left / ended by the player / limit)
    actions_taken: int

    def __init__(self, game: Nutty, players: int, seed: int, start: str | None = None) -> None:
        self._init_base(game, players, seed, start)
        self.solo = True
        self.cards = game.options.cards
        self.phase, self.result, self.actions_taken = "play", "", 0
        if start is None:
            self._setup()
        else:
            self._init_tree(1)  # the notation reader fills it

    # ================================================================== SETUP (NS-17)
    def _setup(self) -> None:
        """Keep leaves, Owl, Sticky Fingers and Broken Branches; the market takes one of four powers; no acorns.

        Sets every field of the tree and boards itself (``_init_tree`` would make lists only to replace them).
        """
        options = self.game.options
        slots, box, market, setup = _solo_split(options.deck_composition, options.solo_keep_events)
        if len(slots) < TREE_SIZE:  # a custom composition (NS-1) may not hold enough of the solo kinds
            raise InvalidOptionError(
                f"option 'deck_composition': the solo game deals its tree from leaves, the Owl, Sticky Fingers "
                f"and Broken Branches (plus the other events with solo_keep_events); this deck has {len(slots)} "
                f"of them, {TREE_SIZE} are needed"
            )
        # The deck shuffled as face-down slots (the same draws and order as shuffling the kinds), then dealt
        # as ``_deal`` deals: six limbs of five from the top (the last item), the rest left as the Leaf Deck.
        deck = list(slots)
        self.rng.shuffle(deck)
        top = deck[: -TREE_SIZE - 1 : -1]  # the dealt cards, top first
        self.limbs = [top[0:5], top[5:10], top[10:15], top[15:20], top[20:25], top[25:30]]  # LIMB_LENGTH each
        self.deck = list(map(_KIND, deck[:-TREE_SIZE]))
        self.out_known, self.out_hidden, self.box, self.market = [], [], list(box), list(market)
        # The boards ``_init_tree(1)`` sets, from literals: one squirrel on the trunk, an empty board, the full
        # supply (``_init_tree``'s list copies cost a new game more).
        self.supply_b, self.supply_g, self.gone_b, self.gone_g = BROWN_TOTAL, GOLDEN_TOTAL, 0, 0
        self.where, self.cheeks_b, self.cheeks_g, self.pack = [TRUNK], [0], [0], [""]
        self.nest_b, self.nest_g, self.bur_b, self.bur_g = [0], [0], [0], [0]
        self.stick_b, self.stick_g, self.powers = [0], [0], [()]
        self.sappy_next, self.sappy_now = [0], [0]
        if self.record_events:
            self._log = (setup, self._log)
        self._cache, self._cache_seat = _FIRST_LEGAL, 0  # seat 0 is to act: what ``legal_actions`` would set

    # ================================================================== helpers
    def has(self, seat: int, power: str) -> bool:
        """Whether the squirrel owns ``power``."""
        return power in self.powers[0]

    def wealth(self) -> int:
        """Points available for payments: cheeks, Backpack and nest (NS-17 c; never the burrow)."""
        pack = _PACK_POINTS[self.pack[0]]
        return self.cheeks_b[0] + 5 * self.cheeks_g[0] + pack + self.nest_b[0] + 5 * self.nest_g[0]

    def pay(self, amount: int, named: str = "") -> tuple[list[int], int]:
        """Pay ``amount`` points: with the acorns the player named (NS-17k), or in the usual order (NS-17i).

        Returns the acorns taken (``payment.Taken`` order) and the brown change that went to the nest.
        """
        have = payment.holdings(self)
        taken = payment.BY_TEXT[(amount, named)] if named else payment.usual(have, amount)
        change = payment.settle(self, amount, taken)
        return list(taken), change

    def move_cost(self, limb: int, pos: int) -> int:
        """Points to move onto (limb, pos), or -1 if the move is impossible (NS-17 b)."""
        w = self.where[0]
        if limb < 0:
            return 0  # inward is free
        slot = self.limbs[limb][pos]
        broken = is_broken(slot)
        if broken and SWINGING not in self.powers[0]:
            return -1  # only Swinging Squirrel crosses Broken Branches in solo
        if w != TRUNK and w // STRIDE != limb:
            return -1 if broken or FLYING not in self.powers[0] else 0  # sideways: free, needs Flying
        outward = w == TRUNK or pos > w % STRIDE
        return 1 if outward and slot[1] else 0

    def moves_from(self) -> list[tuple[int, int]]:
        """Adjacent cards, the trunk, and with Flying Squirrel the same position next door."""
        w = self.where[0]
        if w == TRUNK:
            return [(limb, 0) for limb in range(6) if self.limbs[limb]]
        limb, pos = divmod(w, STRIDE)
        out = [(-1, -1) if pos == 0 else (limb, pos - 1)]
        if pos + 1 < len(self.limbs[limb]):
            out.append((limb, pos + 1))
        if FLYING in self.powers[0]:
            for side in ((limb + 5) % 6, (limb + 1) % 6):
                if pos < len(self.limbs[side]):
                    out.append((side, pos))
        return out

    # ================================================================== decisions
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (no check needed: the hook itself is the fast path)."""
        return () if self.phase == "over" else (0,)

    def _to_act(self) -> tuple[int, ...]:
        # The hook calls the public fast path (not an alias ``to_act = _to_act``: mypyc cannot compile one).
        return self.to_act()

    def legal_actions(self, seat: object) -> tuple[Act, ...]:
        """The legal actions of ``seat`` now, in codec order; empty if the seat is not to act."""
        # ``TreeState.legal_actions`` with its seat check written for the one seat (no ``_to_act`` call: this
        # runs once per step); anything but seat 0 in a running game goes to it for its answer or its error.
        if seat is self._cache_seat:
            return self._cache  # type: ignore[return-value]  # set together with _cache_seat
        if type(seat) is not int or seat != 0 or self.phase == "over":
            return TreeState.legal_actions(self, seat)
        legal = self._cache
        if legal is None:
            legal = self._cache = self._compute_legal()
        self._cache_seat = seat
        return legal

    def _compute_legal(self) -> tuple[Act, ...]:
        """The legal actions, in codec order."""
        phase = self.phase
        if phase != "play":
            if phase == "fools":  # NS-8: settle Fool's Gold first
                return tuple(sorted([A.EXCHANGE[place] for place in self.fools_places(0)], key=_ORDER))
            if phase == "bribe":  # NS-17 e, k: the usual payment, then the other ways to pay
                bribes = [A.BRIBE, *(A.BRIBE_PAY[t] for t in payment.alternatives(self, PRICE))]
                return tuple(sorted(bribes, key=_ORDER))
        out: list[Act] = []
        # The common cases append in codec order, so the list needs no sort (hashing every action for its codec
        # index cost about 4 % of a random solo game); the branches that may append out of order clear ``tidy``.
        tidy = True
        # ``moves_from``, ``move_cost``, ``wealth`` and ``carried`` inlined: legal actions are listed once per
        # step, a hot path. A step onto a face-down card is free; onto a face-up one outward costs a point, and
        # only Swinging Squirrel crosses a revealed Broken Branch; inward and sideways (Flying) steps are free
        # (NS-17 b).
        w = self.where[0]
        limbs = self.limbs
        owned = self.powers[0]
        pack = self.pack[0]
        cheeks_b = self.cheeks_b[0]
        cheeks_g = self.cheeks_g[0]
        if owned:
            swinging = SWINGING in owned
            backpack = BACKPACK in owned
        else:
            swinging = backpack = False
        paid: list[tuple[int, int]] = []  # face-up cards one outward step away: a point each
        if w < 0:
            nest_b, nest_g = self.nest_b[0], self.nest_g[0]
            for limb in range(6):
                cards = limbs[limb]
                if cards:
                    slot = cards[0]
                    if not slot[1]:
                        out.append(_MOVE[limb][0])
                    elif slot[0] != BROKEN or swinging:
                        paid.append((limb, 0))
            has_b = cheeks_b or pack == "b"
            has_g = cheeks_g or pack == "g"
            if has_b:
                out.append(_STASH_B)
            if has_g:
                out.append(_STASH_G)
            if nest_b or nest_g:
                room = cheeks_b + cheeks_g + (1 if pack else 0) < CHEEKS + (1 if backpack else 0)
                if room and nest_b:
                    out.append(_UNSTASH_B)
                if room and nest_g:
                    out.append(_UNSTASH_G)
            if has_b or nest_b:
                out.append(_BURY_B)
            if has_g or nest_g:
                out.append(_BURY_G)
            tidy = not pack and not backpack  # a Backpack's actions come before these in the codec
        else:
            limb, pos = divmod(w, STRIDE)
            cards = limbs[limb]
            if pos == 0:
                out.append(_MOVE_TRUNK)
            else:
                slot = cards[pos - 1]
                if not (slot[1] and slot[0] == BROKEN) or swinging:
                    out.append(_MOVE[limb][pos - 1])
            if pos + 1 < len(cards):
                slot = cards[pos + 1]
                if not slot[1]:
                    out.append(_MOVE[limb][pos + 1])
                elif slot[0] != BROKEN or swinging:
                    paid.append((limb, pos + 1))
            if owned and FLYING in owned:  # sideways: free, never onto a revealed Broken Branch
                tidy = False
                for side in ((limb + 5) % 6, (limb + 1) % 6):
                    other = limbs[side]
                    if pos < len(other) and not (other[pos][1] and other[pos][0] == BROKEN):
                        out.append(_MOVE[side][pos])
            _, up, brown, golden = cards[pos]
            if not up:  # NS-17 j: a face-down card underfoot (after a shift) may be flipped, for free
                out.append(A.FLIP)
                tidy = False
            if (brown or golden) and cheeks_b + cheeks_g + (1 if pack else 0) < CHEEKS + (1 if backpack else 0):
                if brown:
                    out.append(_GATHER_B)
                if golden:
                    out.append(_GATHER_G)
            if cheeks_b or pack == "b":
                out.append(_DROP_B)
            if cheeks_g or pack == "g":
                out.append(_DROP_G)
            if owned and LASSO in owned:
                tidy = False
                for sl, sp in self.lasso_sources(owned, limb, pos):
                    if limbs[sl][sp][2]:
                        out.append(A.LASSO[sl][sp]["b"])
                    if limbs[sl][sp][3]:
                        out.append(A.LASSO[sl][sp]["g"])
            nest_b, nest_g = self.nest_b[0], self.nest_g[0]
        # Points available to pay (cheeks, Backpack and nest; NS-17 c).
        wealth = cheeks_b + 5 * cheeks_g + _PACK_POINTS[pack] + nest_b + 5 * nest_g
        if paid and wealth >= MOVE_COST:
            tidy = False
            named = payment.alternatives(self, MOVE_COST)  # NS-17k: the player may name the acorn that pays
            for limb, pos in paid:
                out.append(_MOVE[limb][pos])
                if named:
                    cell = A.MOVE_PAY[limb][pos]
                    out += [cell[t] for t in named]
        if pack:
            if cheeks_b + cheeks_g < CHEEKS:
                out.append(A.UNPACK)
        elif backpack:
            if cheeks_b:
                out.append(A.PACK["b"])
            if cheeks_g:
                out.append(A.PACK["g"])
        if wealth >= PRICE:  # NS-17 h: the market, at any time
            tidy = False
            ways = payment.alternatives(self, PRICE)
            for power in self.market:
                for returned in ("",) if len(owned) < 3 else tuple(p for p in owned if p in MARKET):
                    out.append(A.BUY_RETURN[(power, returned)] if returned else A.BUY[power])
                    table = A.BUY_PAY[(power, returned)]
                    out += [table[t] for t in ways]
        out.append(_END_GAME)  # NS-17 g: the player may stop at any time
        if not tidy:
            out.sort(key=_ORDER)
        return tuple(out)

    def lasso_sources(self, powers: tuple[str, ...], limb: int, pos: int) -> list[tuple[int, int]]:
        """Cards the Lasso reaches: i±1 on the limb; next door too with Flying and the lateral variant (NS-11)."""
        out = [(limb, p) for p in (pos - 1, pos + 1) if 0 <= p < len(self.limbs[limb])]
        if self.game.options.lasso_lateral_with_flying and FLYING in powers:
            out += [(side, pos) for side in ((limb + 5) % 6, (limb + 1) % 6) if pos < len(self.limbs[side])]
        return out

    # ================================================================== applying
    def _apply(self, seat: int, action: Any) -> None:
        self._cache, self._cache_seat = None, NOBODY
        act: Act = action
        self.actions_taken += 1
        _HANDLERS[act.verb](self, act)
        if self.phase == "play":  # not while a Fool's Gold waits for the player's choice
            # NS-17 d, g: the end, checked after every action (``points`` inlined: nest and burrow count).
            if self.bur_b[0] + 5 * self.bur_g[0] + self.nest_b[0] + 5 * self.nest_g[0] >= WIN_POINTS:
                self._finish("won", "20 points gathered")
            elif not reach.can_gain(self):
                self._finish("ended", "nothing left within reach")
            elif self.actions_taken >= _LIMIT_FLOOR and self.actions_taken >= self.game.options.solo_max_actions:
                self._finish("ended", "action limit")

    def _do_end_game(self, act: Act) -> None:
        self._finish("ended", "the player ended the game")

    def _do_move(self, act: Act) -> None:
        limb, pos = act.limb, act.pos
        if limb < 0:  # inward: free
            self.where[0] = TRUNK
            if self.record_events:
                self._log = (_TRUNK_MOVE_EVENT, self._log)
            return
        slot = self.limbs[limb][pos]
        up = slot[1]
        cost = self.move_cost(limb, pos) if up else 0  # a step onto a face-down card is always free
        self.where[0] = limb * STRIDE + pos
        if cost:
            taken, change = self.pay(cost, act.pay)
            self._event("move", seat=0, to=A.PLACE[limb][pos], paid=cost, taken=taken, change=change)
        elif self.record_events:
            self._log = (_FREE_MOVE_EVENTS[limb][pos], self._log)
        if not up:  # NS-17 b: landing on a face-down card flips it at once
            self._flip(limb, pos)
        elif slot[0] == STICKY:
            self._pickpocket()

    def _do_flip(self, act: Act) -> None:
        """NS-17 j: flip the face-down card the squirrel was shifted onto (no cost, like every solo action)."""
        limb, pos = divmod(self.where[0], STRIDE)
        self._flip(limb, pos)

    def _flip(self, limb: int, pos: int) -> None:
        """Reveal the card under the squirrel, resolve it, then check for a limb break (NS-6).

        An Owl waiting for its bribe is still on the limb, so the break check waits for the bribe too.
        """
        cards = self.limbs[limb]
        kind, _, brown, golden = cards[pos]
        if self.record_events:
            self._log = (_FLIP_EVENTS[limb][pos][kind], self._log)
        acorns = LEAF_ACORNS.get(kind)
        if acorns is not None:  # a leaf takes its acorns from the supply (``stock_leaf``), nothing more
            add_b, add_g = acorns
            if add_b > self.supply_b:
                add_b = self.supply_b
            if add_g > self.supply_g:
                add_g = self.supply_g
            self.supply_b -= add_b
            self.supply_g -= add_g
            cards[pos] = (kind, True, brown + add_b, golden + add_g)
            # No break check: a leaf turning face up leaves every revealed Broken Branch and the limb's length
            # as they were, and a running game never holds two adjacent ones with cards beyond them (NS-6;
            # rule 4 of ``consistency.py``, which every loaded position passes), so the check would find none.
            return
        cards[pos] = (kind, True, brown, golden)
        self._resolve(limb, pos)
        if self.phase not in ("over", "bribe"):
            self.check_break(limb, self.game.options.break_tokens_beyond == "slide_to_break")

    def _resolve(self, limb: int, pos: int) -> None:
        """A card revealed under the squirrel (NS-17 a, e, f)."""
        kind = self.limbs[limb][pos][0]
        if kind in LEAF_ACORNS:
            self.stock_leaf(limb, pos)
        elif kind == BROKEN:  # a fall; in solo there is no turn to end
            self.fall_all([0], "broken branch")
        elif kind == OWL:
            self._owl(limb, pos)
        elif kind == STICKY:
            self._pickpocket()
        elif kind == WIND:
            w = self.where[0]
            dest = w % STRIDE + 2
            if dest >= len(self.limbs[limb]) or is_broken(self.limbs[limb][dest]):
                self.fall_all([0], "wind gust")
            else:
                self.where[0] = at(limb, dest)
                self._event("blown", seat=0, to=place_name(limb, dest))
            self.out_known.append(self.remove_card(limb, pos))
        elif kind == FOOLS:  # solo_keep_events: NS-8, the player picks the golden when there is a choice
            self.out_known.append(self.remove_card(limb, pos))
            places = self.fools_places(0)
            if len(places) == 1:
                self.exchange_golden(0, places[0])
            elif places:
                self.phase = "fools"
        elif kind == ARBORIST:
            self._arborist(limb, pos)
        elif kind in EVENTS:  # Sappy Feet: no action points to lose in solo
            self.out_known.append(self.remove_card(limb, pos))
        else:
            raise InvariantError(f"card {kind!r} cannot be in the solo deck")

    # ------------------------------------------------------------------ the Owl (NS-17 e, k)
    def _owl(self, limb: int, pos: int) -> None:
        """NS-17 e: bribe the Owl with 3 points or lose; a paid Owl leaves and the limb closes, unrefilled.

        With one way to pay, the bribe is paid at once; with several, the Owl waits on its card while the
        player chooses (phase ``bribe``). An Owl revealed while another waits (an Arborist, a custom deck)
        waits too: bribes are paid one at a time, outermost first.
        """
        if self.phase == "bribe":
            return
        if self.wealth() < PRICE:
            self._event("owl", seat=0, bribed=False)
            self._finish("lost", "the Owl could not be bribed")
            return
        if payment.alternatives(self, PRICE):
            self.phase = "bribe"
            self._event("owl", seat=0, waiting=True)
            return
        self._bribe(limb, pos, "")

    def _bribe(self, limb: int, pos: int, named: str) -> None:
        taken, change = self.pay(PRICE, named)
        self.out_known.append(self.remove_card(limb, pos, refill=False))
        self._event("owl", seat=0, bribed=True, taken=taken, change=change)

    def waiting_owl(self) -> tuple[int, int] | None:
        """The Owl waiting for its bribe (the outermost face-up Owl on the tree), if any."""
        found = None
        for limb, cards in enumerate(self.limbs):
            for pos, slot in enumerate(cards):
                if slot[0] == OWL and slot[1]:
                    found = (limb, pos)
        return found

    def _do_bribe(self, act: Act) -> None:
        """NS-17k: pay the waiting Owl with the acorns chosen; then the next waiting Owl, then the break check."""
        owl = self.waiting_owl()
        if owl is None:
            raise InvariantError("a bribe with no Owl waiting")
        limb = owl[0]
        self._bribe(*owl, act.pay)
        while (owl := self.waiting_owl()) is not None:
            if self.wealth() < PRICE:
                self._event("owl", seat=0, bribed=False)
                self._finish("lost", "the Owl could not be bribed")
                return
            if payment.alternatives(self, PRICE):
                self._event("owl", seat=0, waiting=True)
                return
            self._bribe(*owl, "")
        self.phase = "play"
        self.check_break(limb, self.game.options.break_tokens_beyond == "slide_to_break")

    def _pickpocket(self) -> None:
        """NS-17 f: Sticky Fingers takes the lowest-valued carried acorn."""
        if self.cheeks_b[0]:
            self.cheeks_b[0] -= 1
            self.supply_b += 1
            taken = ("b", "cheeks")
        elif self.pack[0] == "b":
            self.pack[0] = ""
            self.supply_b += 1
            taken = ("b", "backpack")
        elif self.cheeks_g[0]:
            self.cheeks_g[0] -= 1
            self.supply_g += 1
            taken = ("g", "cheeks")
        elif self.pack[0] == "g":
            self.pack[0] = ""
            self.supply_g += 1
            taken = ("g", "backpack")
        else:
            return
        self._event("pickpocket", seat=0, colour=taken[0], place=taken[1])

    def _do_exchange(self, act: Act) -> None:
        """NS-8: the golden the player chose goes back for a brown; play goes on."""
        self.exchange_golden(0, act.other)
        self.phase = "play"

    def _arborist(self, limb: int, pos: int) -> None:
        """Solo Arborist: reveal the limb; leaves stocked, an Owl must be bribed, other events leave (NS-10)."""
        cards = self.limbs[limb]
        revealed = [i for i, slot in enumerate(cards) if i != pos and not slot[1]]
        for i in revealed:
            kind, _, brown, golden = cards[i]
            cards[i] = (kind, True, brown, golden)
            if kind in LEAF_ACORNS:
                self.stock_leaf(limb, i)
        self._event("arborist", seat=0, limb=limb + 1, cards=[cards[i][0] for i in revealed])
        own = pos
        for i in reversed(revealed):
            kind = cards[i][0]
            if kind == OWL:
                self._owl(limb, i)
                if self.phase == "over":
                    return
                if self.phase == "bribe":  # it waits on its card for the bribe
                    continue
            elif kind in EVENTS and kind != BROKEN:
                self.out_known.append(self.remove_card(limb, i))
            else:
                continue
            if i < own:
                own -= 1
        self.out_known.append(self.remove_card(limb, own))

    # ------------------------------------------------------------------ acorns
    def _do_gather(self, act: Act) -> None:
        limb, pos = divmod(self.where[0], STRIDE)
        self.add_to_card(limb, pos, -(act.colour == "b"), -(act.colour == "g"))
        self.give_carried(0, act.colour)
        if self.record_events:
            self._log = (_GATHER_EVENTS[act.colour], self._log)

    def _do_drop(self, act: Act) -> None:
        limb, pos = divmod(self.where[0], STRIDE)
        self.take_carried(0, act.colour)
        self.add_to_card(limb, pos, act.colour == "b", act.colour == "g")
        if self.record_events:
            self._log = (_DROP_EVENTS[act.colour], self._log)

    def _do_pack(self, act: Act) -> None:
        if act.colour == "b":
            self.cheeks_b[0] -= 1
        else:
            self.cheeks_g[0] -= 1
        self.pack[0] = act.colour
        self._event("pack", seat=0, colour=act.colour)

    def _do_unpack(self, act: Act) -> None:
        colour = self.pack[0]
        self.pack[0] = ""
        self.give_carried(0, colour)
        self._event("unpack", seat=0, colour=colour)

    def _do_stash(self, act: Act) -> None:
        self.take_carried(0, act.colour)
        if act.colour == "b":
            self.nest_b[0] += 1
        else:
            self.nest_g[0] += 1
        self._event("stash", seat=0, colour=act.colour, points=self.points(0))

    def _do_unstash(self, act: Act) -> None:
        if act.colour == "b":
            self.nest_b[0] -= 1
        else:
            self.nest_g[0] -= 1
        self.give_carried(0, act.colour)
        self._event("unstash", seat=0, colour=act.colour, points=self.points(0))

    def _do_bury(self, act: Act) -> None:
        colour = act.colour
        in_cheeks = self.cheeks_b[0] if colour == "b" else self.cheeks_g[0]
        if in_cheeks or self.pack[0] == colour:
            source = "cheeks" if in_cheeks else "backpack"
            self.take_carried(0, colour)
        elif colour == "b":
            self.nest_b[0] -= 1
            source = "nest"
        else:
            self.nest_g[0] -= 1
            source = "nest"
        if colour == "b":
            self.bur_b[0] += 1
        else:
            self.bur_g[0] += 1
        self._event("bury", seat=0, colour=colour, source=source, points=self.points(0))

    def _do_lasso(self, act: Act) -> None:
        limb, pos = divmod(self.where[0], STRIDE)
        brown, golden = int(act.colour == "b"), int(act.colour == "g")
        self.add_to_card(act.limb, act.pos, -brown, -golden)
        self.add_to_card(limb, pos, brown, golden)
        self._event("lasso", seat=0, source=place_name(act.limb, act.pos), to=place_name(limb, pos), colour=act.colour)

    def _do_buy(self, act: Act) -> None:
        """NS-17 h: buy a market power for 3 points; with three powers, one goes back to the market."""
        taken, change = self.pay(PRICE, act.pay)
        self.market.remove(act.power)
        owned = list(self.powers[0])
        if act.other:
            owned.remove(act.other)
            if act.other == BACKPACK:
                self.rescue_backpack(0)
            self.market.append(act.other)
            self.market.sort(key=MARKET.index)
        self.powers[0] = sort_powers([*owned, act.power])
        self._event("buy", seat=0, power=act.power, returned=act.other, taken=taken, change=change)

    # ================================================================== the end (NS-17 d, g)
    def can_gain(self) -> bool:
        """NS-17 g: whether anything is still within reach (the rule is in ``reach.py``)."""
        return reach.can_gain(self)

    def _finish(self, result: str, reason: str) -> None:
        self.phase = "over"
        self.result = result
        if self.record_events:  # ``_event`` and ``points`` inlined: every game ends here once
            score = self.bur_b[0] + 5 * self.bur_g[0] + self.nest_b[0] + 5 * self.nest_g[0]
            over = {"winners": [0] if result == "won" else [], "reason": reason, "score": score}
            self._log = (("game_over", over, None, None), self._log)

    def _scores(self) -> list[float]:
        return [float(self.points(0))]

    def _winners(self) -> list[int]:
        return [0] if self.result == "won" else []

    # ================================================================== information
    def _observe(self, seat: int | None) -> dict[str, Any]:
        obs = self.observe_tree(seat)
        phase = self.phase
        # Key by key into the tree's dict (no temporary dict); the decision's text is its value (``str`` of it).
        obs["decision"] = self._decision().value
        obs["to_act"] = list(self._to_act())
        obs["phase"] = phase
        obs["current"] = 0
        obs["result"] = self.result
        obs["actions_taken"] = self.actions_taken
        obs["wealth"] = self.wealth()
        obs["fools_places"] = self.fools_places(0) if phase == "fools" else []
        return obs

    def _clone(self) -> Self:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        self._copy_tree_into(twin)
        twin.phase, twin.result, twin.actions_taken = self.phase, self.result, self.actions_taken
        twin._cache, twin._cache_seat = self._cache, self._cache_seat
        return twin

    def _check_invariants(self) -> None:
        self.check_conservation()
        w = self.where[0]
        if w != TRUNK and (w // STRIDE >= 6 or w % STRIDE >= len(self.limbs[w // STRIDE])):
            raise InvariantError("the squirrel stands on a card that does not exist")
        if any(p not in MARKET for p in self.powers[0]):
            raise InvariantError("a solo player holds a power that is not sold in the market")

    def notation_fields(self) -> list[str]:
        """The solo fields of the notation."""
        return [f"solo={self.actions_taken}", f"phase={self.phase}", f"result={self.result or '-'}"]

    def read_fields(self, fields: dict[str, str]) -> None:
        """Read the fields written by :meth:`notation_fields`."""
        from .notation import bad, need, read_int

        self.actions_taken = read_int(need(fields, "solo"), "solo", 0, self.game.options.solo_max_actions)
        phase = need(fields, "phase")
        if phase not in ("play", "fools", "bribe", "over"):
            raise bad("expected play, fools, bribe or over", "phase", phase)
        result = need(fields, "result")
        if result not in ("-", "won", "lost", "ended"):
            raise bad("expected -, won, lost or ended", "result", result)
        self.phase, self.result = phase, "" if result == "-" else result
        self._cache, self._cache_seat = None, NOBODY


#: Each verb's handler, looked up once per action instead of building its method name.
_HANDLERS: Final[dict[str, Any]] = {
    verb: getattr(SoloState, "_do_" + verb.replace(" ", "_"))
    for verb in dict.fromkeys(a.verb for a in A.ALL_ACTIONS)
    if hasattr(SoloState, "_do_" + verb.replace(" ", "_"))
}
