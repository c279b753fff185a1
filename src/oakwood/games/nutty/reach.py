"""The automatic end of a solo game (NS-17 g): whether anything is still within reach.

The rulebook: "if all available moves have been exhausted, the game is over". Oakwood's exact reading:

- A *place* (the Central Trunk or a card) is within reach if the squirrel can get there from where it stands
  by solo moves — inward for free, sideways for free with Flying Squirrel, outward onto a face-up card for
  1 point, onto or across a revealed Broken Branch only with Swinging Squirrel — buying any powers from the
  market on the way (3 points each; with three powers held, one goes back), as long as everything paid adds
  up to no more than the squirrel's wealth now (cheeks, Backpack and nest).
- Something is left within reach when, at a place within reach and with the powers held there: the card is
  face down (landing flips it; the search does not go past it); acorns lie on the card; with the Lasso,
  acorns lie on a card the Lasso reaches from it; or the place is the trunk and the squirrel carries an
  acorn (it can be stashed).
- Otherwise the game ends. The search does not weigh what a trip costs against what it brings (the player
  stops a game not worth going on with ``end game``), and ignores Sticky Fingers' pickpocketing on the way.

The search is a cheapest-first walk over (place, powers held): at most 31 places × the sets of market
powers, stopping at the first thing within reach. It runs after every solo action, so it first walks the
places alone with the powers held (no purchase), which settles the common case cheaply.

The same walk gives the bound of NS-17l (``most_points``): the most points the game can still end with once
no face-down card is within reach, which the solo warnings read (``warn.py``).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from .cards import BACKPACK, FLYING, LASSO, SWINGING
from .payment import PRICE
from .tree import STRIDE, TRUNK, WIN_POINTS, at, is_broken, sort_powers

if TYPE_CHECKING:
    from .solo import SoloState

Powers = tuple[str, ...]


def can_gain(state: SoloState) -> bool:
    """Whether a face-down card, an acorn to gather or lasso, or a carried acorn to stash is within reach."""
    # The cases the walk below would settle at its first place or first free step, decided without building
    # it (this runs after every solo action): acorns or a face-down card underfoot, carried acorns on the
    # trunk, or a face-down card one step away — a step onto a face-down card is free, inward, outward or
    # from the trunk, and a face-down card is never a revealed Broken Branch.
    where = state.where[0]
    limbs = state.limbs
    if where == TRUNK:
        if state.cheeks_b[0] or state.cheeks_g[0] or state.pack[0]:
            return True
        for cards in limbs:
            if cards and not cards[0][1]:
                return True
    else:
        limb, pos = divmod(where, STRIDE)
        cards = limbs[limb]
        _, up, brown, golden = cards[pos]
        if not up or brown or golden:
            return True
        if pos and not cards[pos - 1][1]:
            return True
        if pos + 1 < len(cards) and not cards[pos + 1][1]:
            return True
    return search(state)


def search(state: SoloState) -> bool:
    """The walk itself, ``can_gain`` without its shortcuts: cheapest first over (place, powers held)."""
    budget = state.wealth()
    owned = state.powers[0]
    if _within(state, owned, budget, _something_at):
        return True  # the common case, decided without purchases: this runs after every solo action
    if budget < PRICE:
        return False
    return walk(state, budget, _something_at)


def walk(state: SoloState, budget: int, found: Callable[[SoloState, int, Powers], bool]) -> bool:
    """Visit every (place, powers held) within reach for at most ``budget`` points, cheapest first, until
    ``found(state, place, powers)`` says True (then True; False once all are visited).

    The walk of NS-17 g (``search`` stops it at something within reach), shared with the bound of NS-17l
    (``most_points``), so that both read the same moves, costs and purchases.
    """
    owned = state.powers[0]
    # Powers that change what can be reached; the Backpack only takes a slot (and may be returned).
    for_sale = tuple(p for p in state.market if p != BACKPACK)
    start = (state.where[0], owned)
    best = {start: 0}
    queue: list[tuple[int, int, Powers]] = [(0, start[0], owned)]
    while queue:
        spent, where, powers = heapq.heappop(queue)
        if best.get((where, powers), spent) < spent:
            continue  # already reached more cheaply
        if found(state, where, powers):
            return True
        moves = [(nxt, spent + price, powers) for nxt, price in _steps(state, where, powers)]
        if spent + PRICE <= budget:
            moves += [(where, spent + PRICE, more) for more in _purchases(powers, owned, for_sale)]
        for nxt, cost, held in moves:
            if cost <= budget and cost < best.get((nxt, held), budget + 1):
                best[(nxt, held)] = cost
                heapq.heappush(queue, (cost, nxt, held))
    return False


def most_points(state: SoloState, goal: int = WIN_POINTS) -> int | None:
    """NS-17l: the most points the solo game can still end with, when that is below ``goal`` (20 by
    default); None when ``goal`` may still be reached.

    A certain upper bound, never an estimate: the points banked (nest and burrow), the acorns carried, and
    every acorn lying on a card within reach or a Lasso's reach from one (with the Lasso held there). Within
    reach is the walk of NS-17 g. Gathering acorns raises what the squirrel can pay, so the walk is repeated
    with the wealth now plus the acorns it found until it finds no more. Only a face-down card can bring
    anything else (a leaf's acorns; a card from the Leaf Deck comes only after a card leaves the tree, which
    in solo follows a reveal), so a face-down card within reach means None, and nothing hidden is read: only
    which cards are face down and the acorns in view.
    """
    wealth = state.wealth()
    # Banked plus carried: the nest is both wealth and points, so it is counted once.
    kept = state.points(0) + wealth - state.nest_b[0] - 5 * state.nest_g[0]
    limbs = state.limbs
    cells: set[int] = set()  # cards whose acorns the squirrel can take (position codes)
    found = kept  # the bound so far: kept plus the acorns on ``cells``

    def take(code: int) -> None:
        nonlocal found
        if code not in cells:
            cells.add(code)
            _, _, brown, golden = limbs[code // STRIDE][code % STRIDE]
            found += brown + 5 * golden

    def note(state: SoloState, where: int, powers: Powers) -> bool:
        # True stops the walk: the goal may be reached (a face-down card, or acorns enough in view).
        if where == TRUNK:
            return False
        limb, pos = divmod(where, STRIDE)
        if not limbs[limb][pos][1]:
            return True  # a face-down card within reach: it may be a leaf, so there is no bound
        take(where)
        if LASSO in powers:
            for sl, sp in state.lasso_sources(powers, limb, pos):
                take(at(sl, sp))
        return found >= goal

    # First without purchases, as ``search`` does: a face-down card or acorns enough in reach with the powers
    # held settle most positions before the walk over every set of powers.
    if _within(state, state.powers[0], wealth, note):
        return None
    budget = wealth
    while True:
        if walk(state, budget, note):
            return None
        more = wealth + found - kept  # what the squirrel could pay with after gathering all it found
        if more <= budget:  # the walk found nothing new to pay with: this is the bound
            return found
        budget = more


def _within(state: SoloState, powers: Powers, budget: int, found: Callable[[SoloState, int, Powers], bool]) -> bool:
    """``walk`` buying nothing: whether ``found`` says True at a place within reach with the powers held, by
    a 0-1 breadth-first walk by cost."""
    start = state.where[0]
    cost = {start: 0}
    queue = deque([start])
    done: set[int] = set()
    while queue:
        where = queue.popleft()
        if where in done:
            continue
        done.add(where)
        if found(state, where, powers):
            return True
        here = cost[where]
        for nxt, price in _steps(state, where, powers):
            total = here + price
            if total <= budget and total < cost.get(nxt, budget + 1):
                cost[nxt] = total
                if price:
                    queue.append(nxt)
                else:
                    queue.appendleft(nxt)
    return False


def _purchases(powers: Powers, owned: Powers, for_sale: Powers) -> list[Powers]:
    """The power sets one purchase leads to: add a power, or swap one in when three are held (NS-17 h)."""
    out = []
    # A power sold back to the market can be bought again: what is for sale is what the squirrel lacks of
    # the market's powers and its own.
    candidates = [p for p in (*for_sale, *owned) if p not in powers and p != BACKPACK]
    for power in candidates:
        if len(powers) < 3:
            out.append(sort_powers((*powers, power)))
        else:
            out += [sort_powers((*(q for q in powers if q != back), power)) for back in powers]
    return out


def _something_at(state: SoloState, where: int, powers: Powers) -> bool:
    """A face-down card, acorns on the card or a Lasso's reach away, or (on the trunk) carried acorns."""
    if where == TRUNK:
        return state.carried(0) > 0
    limb, pos = divmod(where, STRIDE)
    _, up, brown, golden = state.limbs[limb][pos]
    if not up or brown or golden:
        return True
    if LASSO not in powers:
        return False
    return any(state.limbs[sl][sp][2] or state.limbs[sl][sp][3] for sl, sp in state.lasso_sources(powers, limb, pos))


def _steps(state: SoloState, where: int, powers: Powers) -> list[tuple[int, int]]:
    """Moves from ``where`` and their point costs under NS-17 b, for a squirrel holding ``powers``."""
    limbs = state.limbs
    out: list[tuple[int, int]] = []
    if where == TRUNK:
        targets = [(limb, 0, True) for limb in range(6) if limbs[limb]]
    else:
        limb, pos = divmod(where, STRIDE)
        targets = [(limb, pos - 1, False)] if pos else []
        if pos + 1 < len(limbs[limb]):
            targets.append((limb, pos + 1, True))
        if FLYING in powers:
            sides = ((limb + 5) % 6, (limb + 1) % 6)
            targets += [(side, pos, False) for side in sides if pos < len(limbs[side])]
        if pos == 0:
            out.append((TRUNK, 0))
    for limb, pos, outward in targets:
        slot = limbs[limb][pos]
        if is_broken(slot) and (SWINGING not in powers or (where != TRUNK and where // STRIDE != limb)):
            continue  # only Swinging Squirrel crosses Broken Branches, and nobody flies onto one
        out.append((at(limb, pos), 1 if outward and slot[1] else 0))
    return out
