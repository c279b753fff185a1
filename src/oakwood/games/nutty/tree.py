"""The tree and the boards shared by the multiplayer and the solo game (RULINGS §3.2, NS-2/3/4/6).

A limb is a list of slots, position 0 next to the trunk. A slot is an immutable tuple
``(kind, face_up, brown, golden)``, so cloning a tree copies six short lists. Squirrel positions are ints:
``-1`` is the Central Trunk, otherwise ``limb * 16 + pos``.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Final, Self

from oakwood.engine import Decision, Event, InvariantError, Rng, State
from oakwood.engine.native import mypyc_attr

from .actions import Act
from .cards import (
    BACKPACK,
    BROKEN,
    BROWN_TOTAL,
    GOLDEN_TOTAL,
    LEAF_ACORNS,
    LIMB_LENGTH,
    LIMBS,
    POWERS,
    STICKY,
    sort_kinds,
)

Slot = tuple[str, bool, int, int]
#: ``_cache_seat`` when no legal tuple is cached for a seat: an object no caller can pass as a seat.
NOBODY: Final[Any] = object()
TRUNK: Final = -1
STRIDE: Final = 16
CHEEKS: Final = 2
WIN_POINTS: Final = 20  # NS-15 (multiplayer), NS-17 d (solo)
#: A board's ``at`` for every position code a squirrel can have (observations share these immutable strings).
_PLACE_NAMES: Final = {TRUNK: "trunk"} | {
    limb * STRIDE + pos: f"L{limb + 1}c{pos + 1}" for limb in range(LIMBS) for pos in range(STRIDE)
}
_BACKPACK_NAMES: Final = {"b": "brown", "g": "golden", "": None}


def at(limb: int, pos: int) -> int:
    """The position code of card ``pos`` of ``limb``."""
    return limb * STRIDE + pos


def is_broken(slot: Slot) -> bool:
    """Whether a slot is a *revealed* Broken Branch (NS-3 iii: face-down ones do not count)."""
    return slot[1] and slot[0] == BROKEN


def sort_powers(powers: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Powers in codec order (a board's slots are unordered)."""
    return tuple(p for p in POWERS if p in powers)


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class TreeState(State):
    """Fields and tree operations common to both modes; subclasses add the turn rules."""

    # No per-instance dict (as S'Quarrels and Barrell): cheaper to create, to clone and to read.
    __slots__ = (
        "_cache",
        "_cache_seat",
        "box",
        "bur_b",
        "bur_g",
        "cards",
        "cheeks_b",
        "cheeks_g",
        "deck",
        "gone_b",
        "gone_g",
        "limbs",
        "market",
        "nest_b",
        "nest_g",
        "out_hidden",
        "out_known",
        "pack",
        "phase",
        "powers",
        "sappy_next",
        "sappy_now",
        "solo",
        "stick_b",
        "stick_g",
        "supply_b",
        "supply_g",
        "where",
    )

    solo: bool
    cards: dict[str, int]
    limbs: list[list[Slot]]
    deck: list[str]  # the Leaf Deck; the top card is the last item
    out_known: list[str]  # out of play, face up (public)
    out_hidden: list[str]  # out of play without ever being revealed (a limb break)
    box: list[str]  # solo: cards set aside at setup
    market: list[str]  # solo: powers for sale
    supply_b: int
    supply_g: int
    gone_b: int  # acorns out of play (stolen acorns tracked on a stolen or destroyed Sticky Fingers)
    gone_g: int
    where: list[int]
    cheeks_b: list[int]
    cheeks_g: list[int]
    pack: list[str]  # "" or the colour in the Backpack
    nest_b: list[int]
    nest_g: list[int]
    bur_b: list[int]
    bur_g: list[int]
    stick_b: list[int]  # acorns tracked on Sticky Fingers
    stick_g: list[int]
    powers: list[tuple[str, ...]]
    sappy_next: list[int]  # Sappy Feet beside the board, for the next turn
    sappy_now: list[int]  # Sappy Feet applied this turn, discarded at its end
    phase: str  # the mode's phase; "over" once the game has ended
    _cache: tuple[Act, ...] | None  # the legal actions of this position, computed when first asked for
    # The seat whose legal actions ``_cache`` holds, set only by ``legal_actions`` for a seat that is to act
    # (else NOBODY): the invariant that makes the shortcut in ``legal_actions`` and ``apply`` safe.
    _cache_seat: Any

    # ------------------------------------------------------------------ set up and copy
    def _init_tree(self, players: int) -> None:
        """An empty tree and the full supply, each squirrel on the trunk with an empty board."""
        n = players
        self.limbs = [[], [], [], [], [], []]  # six limbs (a literal: no comprehension frame per game)
        self.deck, self.out_known, self.out_hidden, self.box, self.market = [], [], [], [], []
        self.supply_b, self.supply_g, self.gone_b, self.gone_g = BROWN_TOTAL, GOLDEN_TOTAL, 0, 0
        self.where = [TRUNK] * n
        # Copies of one list of zeros: a slice makes one list, where ``[0] * n`` makes two (a new game matters).
        zeros = [0] * n
        self.cheeks_b, self.cheeks_g, self.pack = zeros[:], zeros[:], [""] * n
        self.nest_b, self.nest_g, self.bur_b, self.bur_g = zeros[:], zeros[:], zeros[:], zeros[:]
        self.stick_b, self.stick_g = zeros[:], zeros[:]
        self.powers = [()] * n
        self.sappy_next, self.sappy_now = zeros[:], zeros
        self._cache, self._cache_seat = None, NOBODY

    def _deal(self, deck: list[str], setup_acorns: bool) -> None:
        """Deal six limbs of five face-down cards from ``deck`` (top = last); NS-2 setup acorns."""
        browns = (0, 0, 1, 0, 1) if setup_acorns else (0, 0, 0, 0, 0)  # NS-2: cards 3 and 5 (solo: none)
        pop = deck.pop
        for limb in self.limbs:
            for brown in browns:
                limb.append((pop(), False, brown, 0))
        self.supply_b -= 6 * sum(browns)
        self.deck = deck

    def _copy_tree_into(self, twin: TreeState) -> None:
        twin.solo = self.solo
        twin.cards = self.cards
        twin.limbs = [limb[:] for limb in self.limbs]
        twin.deck = self.deck[:]
        twin.out_known = self.out_known[:]
        twin.out_hidden = self.out_hidden[:]
        twin.box = self.box[:]
        twin.market = self.market[:]
        twin.supply_b, twin.supply_g = self.supply_b, self.supply_g
        twin.gone_b, twin.gone_g = self.gone_b, self.gone_g
        twin.where = self.where[:]
        twin.cheeks_b, twin.cheeks_g, twin.pack = self.cheeks_b[:], self.cheeks_g[:], self.pack[:]
        twin.nest_b, twin.nest_g = self.nest_b[:], self.nest_g[:]
        twin.bur_b, twin.bur_g = self.bur_b[:], self.bur_g[:]
        twin.stick_b, twin.stick_g = self.stick_b[:], self.stick_g[:]
        twin.powers = self.powers[:]
        twin.sappy_next, twin.sappy_now = self.sappy_next[:], self.sappy_now[:]

    # ------------------------------------------------------------------ engine hooks both modes share
    def _decision(self) -> Decision:
        return Decision.NONE if self.phase == "over" else Decision.TURN

    def _is_terminal(self) -> bool:
        return self.phase == "over"

    def _determinize(self, seat: int, rng: Rng) -> Self:
        twin = self._clone()
        self.resample_hidden(twin, rng)
        twin._cache, twin._cache_seat = None, NOBODY
        return twin

    # ------------------------------------------------------------------ the fast checked path
    # Simulation and search call these public methods millions of times, and the generic wrappers cost
    # about twenty Python calls per step. These overrides make exactly the same checks with a few calls, and
    # hand every refusal to the generic State method so errors stay identical (as S'Quarrels does; see
    # docs/ARCHITECTURE.md, "Departures").
    @abstractmethod
    def _compute_legal(self) -> tuple[Act, ...]:
        """The legal actions of the seat to act, in codec order (the position has one)."""

    def _legal_actions(self, seat: int) -> tuple[Act, ...]:
        # The hook (``State.apply`` and the explanations call it for the seat to act): computed once per position.
        legal = self._cache
        if legal is None:
            legal = self._cache = self._compute_legal()
        return legal

    def legal_actions(self, seat: object) -> tuple[Act, ...]:
        """The legal actions of ``seat`` now, in codec order; empty if the seat is not to act."""
        # ``is``, not ``==``: 1.0 and True equal seat 1 but are not seats, and NOBODY is no seat at all.
        if seat is self._cache_seat:
            return self._cache  # type: ignore[return-value]  # set together with _cache_seat
        if type(seat) is not int or seat not in self._to_act():
            State.legal_actions(self, seat)  # validates the seat number (raises for a seat that does not exist)
            return ()
        legal = self._cache
        if legal is None:
            legal = self._cache = self._compute_legal()
        self._cache_seat = seat
        return legal

    def apply(self, seat: object, action: Any) -> None:
        """Validate and perform ``seat``'s ``action`` (the same checks and errors as ``State.apply``)."""
        if seat is self._cache_seat:
            legal = self._cache
        elif type(seat) is int and seat in self._to_act():
            legal = self._cache
            if legal is None:
                legal = self._cache = self._compute_legal()
        else:
            State.apply(self, seat, action)  # raises GameOverError / NotYourTurnError / for a non-seat
            return
        if action not in legal:  # type: ignore[operator]  # never None here
            State.apply(self, seat, action)  # raises InvalidActionError / IllegalActionError
            return
        self._apply(seat, action)  # clears the caches
        self._history = ((seat, action), self._history)

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self.phase == "over"

    def to_notation(self) -> str:
        """The position in Nutty notation (see ``notation.py``)."""
        from .notation import write

        return write(self)

    def _why_illegal(self, seat: int, action: Any) -> str:
        from .explain import why_illegal

        return why_illegal(self, seat, action)

    def _event(self, kind: str, **public: Any) -> None:
        """Log a public event (skipped when the log is off): the tuple ``log(Event(kind, public))`` stores."""
        if self.record_events:
            self._log = ((kind, public, None, None), self._log)

    # ------------------------------------------------------------------ queries
    def carried(self, seat: int) -> int:
        """How many acorns a squirrel carries (cheeks and Backpack)."""
        return self.cheeks_b[seat] + self.cheeks_g[seat] + (1 if self.pack[seat] else 0)

    def carried_colours(self, seat: int) -> list[int]:
        """[brown, golden] a squirrel carries in its cheeks and Backpack (what a fall loses)."""
        pack = self.pack[seat]
        return [self.cheeks_b[seat] + (pack == "b"), self.cheeks_g[seat] + (pack == "g")]

    def seats_at(self, code: int) -> list[int]:
        """The squirrels standing on a position."""
        return [s for s, w in enumerate(self.where) if w == code]

    def points(self, seat: int) -> int:
        """Buried points (solo: nest and burrow, NS-17 d)."""
        total = self.bur_b[seat] + 5 * self.bur_g[seat]
        if self.solo:
            total += self.nest_b[seat] + 5 * self.nest_g[seat]
        return total

    def face_down_left(self) -> bool:
        """Whether any face-down card remains on the tree."""
        return any(not slot[1] for limb in self.limbs for slot in limb)

    # ------------------------------------------------------------------ acorn movements
    def stock_leaf(self, limb: int, pos: int) -> None:
        """A revealed leaf takes its acorns from the supply, as many as there are (NS-2)."""
        kind, up, brown, golden = self.limbs[limb][pos]
        want_b, want_g = LEAF_ACORNS.get(kind, (0, 0))
        add_b, add_g = min(want_b, self.supply_b), min(want_g, self.supply_g)
        self.supply_b -= add_b
        self.supply_g -= add_g
        self.limbs[limb][pos] = (kind, up, brown + add_b, golden + add_g)

    def add_to_card(self, limb: int, pos: int, brown: int, golden: int) -> None:
        """Put acorns on a card."""
        kind, up, b, g = self.limbs[limb][pos]
        self.limbs[limb][pos] = (kind, up, b + brown, g + golden)

    def take_carried(self, seat: int, colour: str) -> None:
        """Take one acorn of ``colour`` from the cheeks, else from the Backpack."""
        if colour == "b" and self.cheeks_b[seat]:
            self.cheeks_b[seat] -= 1
        elif colour == "g" and self.cheeks_g[seat]:
            self.cheeks_g[seat] -= 1
        else:
            self.pack[seat] = ""

    def give_carried(self, seat: int, colour: str) -> None:
        """Add one acorn to a squirrel's cheeks, or its Backpack when the cheeks are full."""
        if self.cheeks_b[seat] + self.cheeks_g[seat] < CHEEKS:
            if colour == "b":
                self.cheeks_b[seat] += 1
            else:
                self.cheeks_g[seat] += 1
        else:
            self.pack[seat] = colour

    def fall_all(self, seats: list[int], cause: str) -> None:
        """FALL for several squirrels, logged once with what each one carried back to the supply."""
        if self.record_events and seats:
            self._event("fall", seats=seats, cause=cause, lost=[self.carried_colours(v) for v in seats])
        for v in seats:
            self.fall(v)

    def fall(self, seat: int) -> None:
        """FALL: to the trunk; the acorns in cheeks and Backpack go back to the supply."""
        self.where[seat] = TRUNK
        self.supply_b += self.cheeks_b[seat] + (1 if self.pack[seat] == "b" else 0)
        self.supply_g += self.cheeks_g[seat] + (1 if self.pack[seat] == "g" else 0)
        self.cheeks_b[seat] = self.cheeks_g[seat] = 0
        self.pack[seat] = ""

    def rescue_backpack(self, seat: int) -> None:
        """NS-11: a Backpack lost to theft or the Owl: its acorn to the cheeks, else the card, else the nest."""
        colour = self.pack[seat]
        if not colour:
            return
        self.pack[seat] = ""
        w = self.where[seat]
        if self.cheeks_b[seat] + self.cheeks_g[seat] < CHEEKS:
            self.give_carried(seat, colour)
        elif w != TRUNK:
            self.add_to_card(w // STRIDE, w % STRIDE, 1 if colour == "b" else 0, 1 if colour == "g" else 0)
        elif colour == "b":
            self.nest_b[seat] += 1
        else:
            self.nest_g[seat] += 1

    def lose_power(self, seat: int, power: str) -> None:
        """A power leaves a board (stolen or destroyed): NS-11/12 side effects; the card itself is not placed."""
        self.powers[seat] = tuple(p for p in self.powers[seat] if p != power)
        if power == BACKPACK:
            self.rescue_backpack(seat)
        elif power == STICKY:
            self.gone_b += self.stick_b[seat]
            self.gone_g += self.stick_g[seat]
            self.stick_b[seat] = self.stick_g[seat] = 0

    # ------------------------------------------------------------------ Fool's Gold (NS-8), both modes
    def fools_places(self, seat: int) -> list[str]:
        """Where ``seat`` holds a golden acorn Fool's Gold can take (NS-8)."""
        out = []
        if self.cheeks_g[seat]:
            out.append("cheeks")
        if self.pack[seat] == "g" and self.game.options.fools_gold_includes_backpack:
            out.append("backpack")
        if self.nest_g[seat]:
            out.append("nest")
        if self.bur_g[seat]:
            out.append("burrow")
        return out

    def exchange_golden(self, s: int, place: str) -> None:
        """NS-8: one golden from ``place`` back to the supply, a brown (if the supply has one) in its stead."""
        brown = 1 if self.supply_b else 0
        self.supply_g += 1
        self.supply_b -= brown
        if place == "cheeks":
            self.cheeks_g[s] -= 1
            self.cheeks_b[s] += brown
        elif place == "backpack":
            self.pack[s] = "b" if brown else ""
        elif place == "nest":
            self.nest_g[s] -= 1
            self.nest_b[s] += brown
        else:
            self.bur_g[s] -= 1
            self.bur_b[s] += brown
        if self.record_events:
            self.log(Event("fools_gold", {"seat": s, "place": place, "brown": brown}))

    # ------------------------------------------------------------------ limbs: shifting, refilling, breaks
    def remove_card(self, limb: int, pos: int, refill: bool = True) -> str:
        """REMOVE (NS-3/4): lift tokens and loose acorns, close the gap, refill a full limb, put them back.

        Returns the removed card's kind; the caller decides where the card goes.
        """
        cards = self.limbs[limb]
        was_full = len(cards) == LIMB_LENGTH
        kind, _, brown, golden = cards.pop(pos)
        here = at(limb, pos)
        lifted = []
        base = at(limb, 0)
        for seat, w in enumerate(self.where):
            if w == here:
                lifted.append(seat)
            elif w != TRUNK and base < w < base + STRIDE and w > here:
                self.where[seat] = w - 1  # tokens ride on the cards that shift inward
        if refill and was_full and self.deck:  # NS-4: a shortened limb is not refilled
            cards.append((self.deck.pop(), False, 0, 0))
        target = min(pos, len(cards) - 1)  # NS-3 (i): the card now at i, or i−1 if the limb shrank
        if target >= 0:
            self.add_to_card(limb, target, brown, golden)  # NS-3 (ii)
        else:
            self.supply_b += brown  # no card left to hold them; acorns never lie on the trunk (NS-16)
            self.supply_g += golden
        if lifted:
            landing = self.step_inward(limb, target)
            for seat in lifted:
                self.where[seat] = landing
        return kind

    def step_inward(self, limb: int, pos: int) -> int:
        """The first position at or inward of ``pos`` that is not a revealed Broken Branch (or the trunk)."""
        cards = self.limbs[limb]
        while pos >= 0 and is_broken(cards[pos]):
            pos -= 1
        return TRUNK if pos < 0 else at(limb, pos)

    def check_break(self, limb: int, slide: bool) -> list[int]:
        """NS-6 BREAK: two adjacent revealed Broken Branches drop every card beyond them; returns who fell.

        Logged whenever a limb breaks, whether or not anybody stood beyond the break.
        """
        cards = self.limbs[limb]
        for i in range(len(cards) - 1):  # ``is_broken`` inlined: this runs after every flip
            slot = cards[i]
            if slot[1] and slot[0] == BROKEN:
                slot = cards[i + 1]
                if slot[1] and slot[0] == BROKEN:
                    break
        else:
            return []
        cut = i + 2
        if cut == len(cards):
            return []  # the pair is already the end of the limb: nothing beyond it
        seen, unseen, brown, golden = [], 0, 0, 0
        for kind, up, b, g in cards[cut:]:
            if up:
                self.out_known.append(kind)
                seen.append(kind)
            else:
                self.out_hidden.append(kind)
                unseen += 1
            brown += b
            golden += g
        self.supply_b += brown
        self.supply_g += golden
        del cards[cut:]
        beyond = [s for s, w in enumerate(self.where) if w != TRUNK and at(limb, cut) <= w < at(limb, STRIDE)]
        fallen = [] if slide else beyond
        slid = beyond if slide else []
        if self.record_events:
            lost = [
                [self.cheeks_b[v] + (self.pack[v] == "b"), self.cheeks_g[v] + (self.pack[v] == "g")] for v in fallen
            ]
            self._event(
                "break", limb=limb + 1, after=cut, cards=seen, unseen=unseen, brown=brown, golden=golden,
                fallen=fallen, lost=lost, slid=slid,
            )  # fmt: skip
        for seat in fallen:
            self.fall(seat)
        if slid:  # variant slide_to_break: inward to the break, keeping the acorns
            landing = self.step_inward(limb, i)
            for seat in slid:
                self.where[seat] = landing
        return fallen

    # ------------------------------------------------------------------ hidden information
    def resample_hidden(self, twin: TreeState, rng: Any) -> None:
        """Re-deal every unseen card (face-down tree slots, Leaf Deck, unrevealed out-of-play) in ``twin``.

        NS-18, perfect recall: a seen card is public and never hides again, so every card any seat has seen
        keeps its place in the world; the unseen ones were never seen by anyone and are drawn uniformly.
        """
        pool = [slot[0] for limb in twin.limbs for slot in limb if not slot[1]]
        pool += twin.deck
        pool += twin.out_hidden
        pool.sort()  # so the world depends only on what is known (and ``rng``), not on where the cards really are
        rng.shuffle(pool)
        k = 0
        for limb in twin.limbs:
            for pos, slot in enumerate(limb):
                if not slot[1]:
                    limb[pos] = (pool[k], False, slot[2], slot[3])
                    k += 1
        twin.deck = pool[k : k + len(twin.deck)]
        k += len(twin.deck)
        twin.out_hidden = pool[k:]

    # ------------------------------------------------------------------ invariants
    def check_conservation(self, extra_cards: list[str] | None = None) -> None:
        """Every card in exactly one zone, 60 brown and 15 golden acorns accounted for (DESIGN §8)."""
        zones: dict[str, int] = dict.fromkeys(self.cards, 0)

        def count(cards: list[str] | tuple[str, ...]) -> None:
            for kind in cards:
                if kind not in zones:
                    raise InvariantError(f"a {kind!r} card that the composition does not have")
                zones[kind] += 1

        for limb in self.limbs:
            if len(limb) > LIMB_LENGTH:
                raise InvariantError(f"a limb holds {len(limb)} cards")
            count([slot[0] for slot in limb])
        for zone in (self.deck, self.out_known, self.out_hidden, self.box, self.market, extra_cards or []):
            count(zone)
        n = self.num_players
        for seat in range(n):
            if len(self.powers[seat]) > 3 or len(set(self.powers[seat])) != len(self.powers[seat]):
                raise InvariantError(f"P{seat + 1} holds powers {self.powers[seat]}")
            count(self.powers[seat])
            count(["SF"] * (self.sappy_next[seat] + self.sappy_now[seat]))
        if zones != self.cards:
            wrong = {k: v - self.cards[k] for k, v in zones.items() if v != self.cards[k]}
            raise InvariantError(f"cards not conserved (found minus expected): {wrong}")
        brown = self.supply_b + self.gone_b + sum(s[2] for limb in self.limbs for s in limb)
        golden = self.supply_g + self.gone_g + sum(s[3] for limb in self.limbs for s in limb)
        for seat in range(n):
            if self.cheeks_b[seat] + self.cheeks_g[seat] > CHEEKS:
                raise InvariantError(f"P{seat + 1} has more than two acorns in the cheeks")
            if self.pack[seat] and BACKPACK not in self.powers[seat] and not self._has_copy(seat, BACKPACK):
                raise InvariantError(f"P{seat + 1} holds an acorn in a Backpack it does not have")
            brown += self.cheeks_b[seat] + self.nest_b[seat] + self.bur_b[seat] + self.stick_b[seat]
            golden += self.cheeks_g[seat] + self.nest_g[seat] + self.bur_g[seat] + self.stick_g[seat]
            brown += self.pack[seat] == "b"
            golden += self.pack[seat] == "g"
            values = (self.cheeks_b[seat], self.cheeks_g[seat], self.nest_b[seat], self.nest_g[seat])
            if min(values) < 0 or min(self.bur_b[seat], self.bur_g[seat], self.stick_b[seat], self.stick_g[seat]) < 0:
                raise InvariantError(f"P{seat + 1} has a negative acorn count")
        if min(self.supply_b, self.supply_g) < 0:
            raise InvariantError("the supply is negative")
        if brown != BROWN_TOTAL or golden != GOLDEN_TOTAL:
            raise InvariantError(f"acorns not conserved: {brown} brown, {golden} golden")

    @abstractmethod
    def notation_fields(self) -> list[str]:
        """The mode's own notation fields (turn or solo state), after the boards."""

    @abstractmethod
    def read_fields(self, fields: dict[str, str]) -> None:
        """Read the mode's own notation fields, removing them from ``fields``."""

    def _has_copy(self, seat: int, power: str) -> bool:
        """Whether ``seat`` currently uses ``power`` through a Doppelgänger copy (multiplayer only)."""
        return False

    # ------------------------------------------------------------------ observation (everything but hidden cards)
    def observe_tree(self, seat: int | None) -> dict[str, Any]:
        """The public part of an observation: the tree (face-down cards shown only as face down), the boards."""
        # Built for speed (the RL loop calls this every step): comprehensions instead of appends, the per-seat
        # lists walked together, and the squirrels put on their cards afterwards (a few seats, not a scan of
        # ``where`` per card). Every list and dict is new.
        tree: list[list[dict[str, Any]]] = [
            [
                {"card": kind if up else None, "brown": brown, "golden": golden, "squirrels": []}
                for kind, up, brown, golden in cards
            ]
            for cards in self.limbs
        ]
        for s, w in enumerate(self.where):  # in seat order, so each card lists its squirrels in seat order
            if w != TRUNK:
                tree[w // STRIDE][w % STRIDE]["squirrels"].append(s)
        points = [self.points(s) for s in range(self.num_players)]
        boards = [
            {
                "at": _PLACE_NAMES[w],
                "cheeks": {"brown": cheeks_b, "golden": cheeks_g},
                "backpack": _BACKPACK_NAMES[pack],
                "nest": {"brown": nest_b, "golden": nest_g},
                "burrow": {"brown": bur_b, "golden": bur_g},
                "sticky": {"brown": stick_b, "golden": stick_g},
                "powers": list(powers),
                "sappy_next": sappy_next,
                "sappy_now": sappy_now,
                "points": score,
            }
            for w, cheeks_b, cheeks_g, pack, nest_b, nest_g, bur_b, bur_g, stick_b, stick_g, powers, sappy_next,
            sappy_now, score in zip(
                self.where, self.cheeks_b, self.cheeks_g, self.pack, self.nest_b, self.nest_g, self.bur_b,
                self.bur_g, self.stick_b, self.stick_g, self.powers, self.sappy_next, self.sappy_now, points,
                strict=True,
            )
        ]  # fmt: skip
        terminal = self._is_terminal()
        return {
            "game": "nutty",
            "mode": "solo" if self.solo else "multiplayer",
            "seat": seat,
            "players": self.num_players,
            "scores": [float(p) for p in points],
            "terminal": terminal,
            "winners": self._winners() if terminal else [],
            "tree": tree,
            "deck": len(self.deck),
            "supply": {"brown": self.supply_b, "golden": self.supply_g},
            "out_of_play": {
                "cards": sort_kinds(self.out_known),
                "face_down": len(self.out_hidden),
                "brown": self.gone_b,
                "golden": self.gone_g,
            },
            "market": sort_kinds(self.market),
            "boards": boards,
        }
