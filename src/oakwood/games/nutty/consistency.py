"""Whether a position read from notation is a real position of the game (issue 8: the trust boundary).

``notation.read`` parses the fields (syntax, known codes, numbers in range) and then calls
:func:`check_position`, which refuses, with an ``InvalidNotationError`` naming the field, every position no
sequence of legal actions can reach. The rules, in the order they are checked:

Both modes
 1. Cards (``tree deck out hidden box market`` and the boards' powers and Sappy Feet): every card of the
    composition (the ``deck_composition`` option) is in exactly one place — per kind, no more, no fewer.
 2. Acorns (``supply`` and everything else): 60 brown and 15 golden, in the supply, on cards, in cheeks,
    Backpacks, nests, burrows, on Sticky Fingers, or ``gone`` out of play.
 3. Boards (``pN``): at most two acorns in the cheeks; an acorn in the Backpack only with a Backpack (held,
    or copied this turn by the current player's Doppelgänger); at most three different powers (NS-5).
 4. Tree (``tree``): while the game runs, no two adjacent revealed Broken Branches with cards beyond them
    (the limb would have broken, NS-6) and no face-up event other than a Broken Branch (a revealed event
    leaves the tree at once, NS-7 … NS-10); cards out of play unseen (``hidden``) only if some limb ends in
    two revealed Broken Branches (only a break removes face-down cards).

Multiplayer
 5. ``box`` and ``market`` are empty (solo only).
 6. Sticky Fingers tracks at most two acorns, and only while the player holds it (NS-12).
 7. A limb shorter than five cards while the Leaf Deck still has cards ends in two revealed Broken
    Branches (while the deck lasts only a break shortens a limb, NS-4).
 8. ``turn``: at most ``max_rounds`` rounds while the game runs; Sappy Feet are being applied
    (``sappy now``) only on the current player's board; the AP left are at most what the turn gave
    (3, +1 if a Sugar Rush can have counted — held, face up on the tree or out of play —, −Sappy Feet, at
    least 0; +1 for a copied Sugar Rush; NS-9).
 9. ``copy``: a Doppelgänger copy only while the current player holds the Doppelgänger (NS-13).
10. Nobody rests on a revealed Broken Branch between turns; the current player stands on one only during
    the turn with the AP to step off it (NS-6).
11. ``end``: once triggered, turns are left; not triggered while the game runs means a face-down card
    is left on the tree (or, with ``end_trigger=all_cards_revealed``, in the Leaf Deck); with
    ``all_cards_revealed`` a triggered end means nothing face down anywhere; turns left only after the
    trigger or, with ``win_at_20=finish_round``, a 20-point player; and they end with a round: at most
    the rest of this round plus one round, and the same seat each time (NS-14, NS-15).
12. ``phase=fools``: Fool's Gold is out of play and the current player has a golden in two places or
    more (with one, the exchange is automatic; NS-8).
13. ``win``: none while the game runs (then, with ``win_at_20=immediate``, everybody is under 20 points);
    once it is over, exactly the players with the best points, golden acorns and loose acorns (NS-15).

Solo
14. ``box`` holds exactly the cards the solo deck leaves out; ``market`` and the board's powers hold one
    of each market power the composition has; only solo kinds are on the tree, in the deck or out of play;
    the board has no Sticky Fingers track or Sappy Feet, and nothing is ``gone`` (NS-17).
15. ``result``: ``-`` exactly while the game runs; ``won`` exactly when the score reaches 20; ``lost``
    leaves a face-up Owl on the tree that the wealth cannot bribe (NS-17 d, e).
16. ``phase``: a face-up Owl is on the tree only while its bribe waits (``phase=bribe``, with more than
    one way to pay, NS-17k) or after a loss; ``phase=fools`` as rule 12; while the game runs the score is
    under 20, ``solo`` (the actions taken) is under ``solo_max_actions`` in ``phase=play`` and something is
    still within reach (NS-17 g, ``reach.py``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from oakwood.engine import InvalidNotationError

from .cards import (
    BACKPACK,
    BROKEN,
    BROWN_TOTAL,
    DOPPEL,
    EVENTS,
    FOOLS,
    GOLDEN_TOTAL,
    KIND_ORDER,
    LIMB_LENGTH,
    MARKET,
    NAME,
    SOLO_KEEP,
    SOLO_KEEP_WITH_EVENTS,
    STICKY,
    SUGAR,
    expand,
)
from .tree import CHEEKS, STRIDE, TRUNK, WIN_POINTS, TreeState, is_broken

if TYPE_CHECKING:
    from .solo import SoloState
    from .state import NuttyState


def check_position(state: TreeState) -> None:
    """Raise :class:`InvalidNotationError` naming the field if ``state`` is not a position of the game."""
    from .notation import write_board, write_tree

    _check_cards(state)
    _check_acorns(state)
    for s in range(state.num_players):
        _check_board(state, s, write_board(state, s))
    _check_tree(state, write_tree(state))
    if state.solo:
        _check_solo(state)  # type: ignore[arg-type]
    else:
        _check_multi(state)  # type: ignore[arg-type]


def _bad(message: str, field: str, text: str = "") -> InvalidNotationError:
    from .notation import bad

    return bad(message, field, text)


def _running(state: TreeState) -> bool:
    return state.phase != "over"


# ---------------------------------------------------------------------- 1–4: both modes
def _zones(state: TreeState) -> list[tuple[str, list[str] | tuple[str, ...]]]:
    zones: list[tuple[str, list[str] | tuple[str, ...]]] = [
        ("tree", [slot[0] for limb in state.limbs for slot in limb]),
        ("deck", state.deck),
        ("out", state.out_known),
        ("hidden", state.out_hidden),
        ("box", state.box),
        ("market", state.market),
    ]
    for s in range(state.num_players):
        zones.append((f"p{s + 1}", [*state.powers[s], *["SF"] * (state.sappy_next[s] + state.sappy_now[s])]))
    return zones


def _check_cards(state: TreeState) -> None:
    """Rule 1: per kind, exactly the composition's count."""
    zones = _zones(state)
    found: Counter[str] = Counter()
    for _, cards in zones:
        found.update(cards)
    expected = Counter(state.cards)
    for kind in sorted(set(found) | set(expected), key=KIND_ORDER.__getitem__):
        extra = found[kind] - expected[kind]
        if extra > 0:
            where = [name for name, cards in zones if kind in cards]
            raise _bad(
                f"{extra} {NAME[kind]} ({kind}) more than deck_composition has: cards are not conserved",
                ", ".join(where),
                kind,
            )
        if extra < 0:
            places = "tree, deck, out, hidden, box, market, boards"
            raise _bad(
                f"{-extra} {NAME[kind]} ({kind}) missing: every card of deck_composition must be somewhere",
                places,
                kind,
            )


def _check_acorns(state: TreeState) -> None:
    """Rule 2: 60 brown and 15 golden acorns."""
    brown = state.supply_b + state.gone_b + sum(slot[2] for limb in state.limbs for slot in limb)
    golden = state.supply_g + state.gone_g + sum(slot[3] for limb in state.limbs for slot in limb)
    for s in range(state.num_players):
        brown += state.cheeks_b[s] + state.nest_b[s] + state.bur_b[s] + state.stick_b[s] + (state.pack[s] == "b")
        golden += state.cheeks_g[s] + state.nest_g[s] + state.bur_g[s] + state.stick_g[s] + (state.pack[s] == "g")
    if brown != BROWN_TOTAL or golden != GOLDEN_TOTAL:
        raise _bad(
            f"acorns are not conserved: {brown} brown and {golden} golden counted in the supply, on the tree, "
            f"on the boards and gone, but there are {BROWN_TOTAL} and {GOLDEN_TOTAL}",
            "supply",
            f"{state.supply_b}.{state.supply_g}",
        )


def _check_board(state: TreeState, s: int, text: str) -> None:
    """Rule 3 (and rule 6 for multiplayer): cheeks, Backpack, powers, Sticky Fingers track."""
    key = f"p{s + 1}"
    if state.cheeks_b[s] + state.cheeks_g[s] > CHEEKS:
        raise _bad("the cheeks hold at most two acorns", key, text)
    if state.pack[s] and BACKPACK not in state.powers[s] and not state._has_copy(s, BACKPACK):
        raise _bad("an acorn in a Backpack the player does not have (NS-11)", key, text)
    if state.solo:
        return
    tracked = state.stick_b[s] + state.stick_g[s]
    if tracked > 2:
        raise _bad("Sticky Fingers tracks at most two acorns (at three they are buried, NS-12)", key, text)
    if tracked and STICKY not in state.powers[s]:
        raise _bad("acorns tracked on a Sticky Fingers the player does not hold (NS-12)", key, text)


def _pair_at(cards: list[Any]) -> int:
    """The index of the first of two adjacent revealed Broken Branches, or -1."""
    for i in range(len(cards) - 1):
        if is_broken(cards[i]) and is_broken(cards[i + 1]):
            return i
    return -1


def _check_tree(state: TreeState, text: str) -> None:
    """Rule 4: broken limbs have been cut; unseen cards out of play come from a break."""
    ends_broken = False
    for limb, cards in enumerate(state.limbs):
        pair = _pair_at(cards)
        if pair >= 0 and pair + 2 < len(cards) and _running(state):
            raise _bad(
                f"limb {limb + 1} has two adjacent revealed Broken Branches with cards beyond (NS-6)", "tree", text
            )
        ends_broken = ends_broken or (pair >= 0 and pair + 2 == len(cards))
        for pos, (kind, up, _, _) in enumerate(cards):
            if up and kind in EVENTS and kind != BROKEN and _running(state):
                raise _bad(
                    f"a face-up {NAME[kind]} at L{limb + 1}c{pos + 1}: a revealed event leaves the tree", "tree", text
                )
    if state.out_hidden and not ends_broken:
        raise _bad("face-down cards out of play, but no limb has broken (NS-6)", "hidden", ",".join(state.out_hidden))


# ---------------------------------------------------------------------- 5–13: multiplayer
def _check_multi(state: NuttyState) -> None:
    if state.box or state.market:
        raise _bad("the box and the market are solo zones", "box" if state.box else "market")
    n = state.num_players
    running = _running(state)
    if state.deck:  # rule 7
        for limb, cards in enumerate(state.limbs):
            if len(cards) < LIMB_LENGTH and _pair_at(cards) != len(cards) - 2:
                raise _bad(
                    f"limb {limb + 1} has {len(cards)} cards while the Leaf Deck has cards: only a break shortens a "
                    "limb then (NS-4)",
                    "tree",
                )
    _check_turn(state, running)
    _check_ends(state, running, n)
    if state.phase == "fools":  # rule 12
        if FOOLS not in state.out_known:
            raise _bad("phase=fools, but Fool's Gold is not out of play", "phase", state.phase)
        if len(state.fools_places(state.current)) < 2:
            raise _bad("phase=fools needs a golden in two places to choose from (NS-8)", "phase", state.phase)
    _check_winners(state, running)


def _check_turn(state: NuttyState, running: bool) -> None:
    """Rules 8–10: rounds, Sappy Feet, action points, the copy, Broken Branches underfoot."""
    turn = f"{state.current + 1}.{state.ap}.{state.first + 1}.{state.round_no}"
    cur = state.current
    if running and state.round_no > state.opts.max_rounds:
        raise _bad(f"round {state.round_no} is past max_rounds={state.opts.max_rounds} (NS-14)", "turn", turn)
    for v in range(state.num_players):
        if v != cur and state.sappy_now[v]:
            raise _bad("Sappy Feet are applied only during their owner's turn (NS-9)", f"p{v + 1}")
    if running:
        # A Sugar Rush held at the start of the turn may since have been swapped onto the tree, and a limb
        # break may have taken it out of play: only one held by nobody else and seen nowhere cannot count.
        sugar = (
            SUGAR in state.powers[cur]
            or SUGAR in state.out_known
            or any(slot[0] == SUGAR and slot[1] for limb in state.limbs for slot in limb)
        )
        allowance = max(0, 3 + sugar - state.sappy_now[cur]) + (state.copy == SUGAR)
        if state.ap > allowance:
            raise _bad(f"{state.ap} AP left, but this turn gave at most {allowance} (NS-9)", "turn", turn)
    if state.copy and DOPPEL not in state.powers[cur]:
        raise _bad("a Doppelgänger copy, but the current player does not hold the Doppelgänger", "copy", state.copy)
    for v, w in enumerate(state.where):
        if w == TRUNK or not is_broken(state.limbs[w // STRIDE][w % STRIDE]):
            continue
        if not running:
            if v != cur:
                raise _bad("nobody but the current player can be on a Broken Branch at the end (NS-6)", f"p{v + 1}")
            continue
        if v != cur or state.phase != "turn":
            raise _bad("nobody rests on a Broken Branch between turns (NS-6)", f"p{v + 1}")
        limb, pos = divmod(w, STRIDE)
        if state.ap < state.step_off_cost(cur, limb, pos):
            raise _bad(
                "the current player is stranded on a Broken Branch without the AP to step off (NS-6)", "turn", turn
            )


def _check_ends(state: NuttyState, running: bool, n: int) -> None:
    """Rule 11: the end trigger and the turns left."""
    text = f"{int(state.end_triggered)}.{state.turns_left}"
    all_cards = state.opts.end_trigger == "all_cards_revealed"
    face_down = state.face_down_left() or (all_cards and bool(state.deck))
    if state.end_triggered:
        if state.turns_left < 0:
            raise _bad("a triggered end leaves a number of turns (NS-14)", "end", text)
        if all_cards and face_down:
            raise _bad("end_trigger=all_cards_revealed, but face-down cards are left (NS-14)", "end", text)
    elif running and not face_down:
        raise _bad("no face-down card is left, so the end must have been triggered (NS-14)", "end", text)
    elif state.turns_left >= 0 and state.opts.win_at_20 != "finish_round":
        raise _bad("turns left before the end is triggered only with win_at_20=finish_round (NS-15)", "end", text)
    if state.turns_left >= 0:
        rest = (state.first - 1 - state.current) % n
        if state.turns_left % n != rest or state.turns_left > rest + n:
            raise _bad(
                f"the last turn must end a round: {state.turns_left} turns after P{state.current + 1}'s is not "
                f"{rest} or {rest + n} (NS-14)",
                "end",
                text,
            )
    elif running and state.opts.win_at_20 == "finish_round":
        for s in range(n):
            if state.points(s) >= WIN_POINTS:
                raise _bad(f"P{s + 1} has 20 points, so the round is the last (NS-15)", "end", text)


def _check_winners(state: NuttyState, running: bool) -> None:
    """Rule 13: winners only at the end, and the right ones."""
    text = ",".join(str(s + 1) for s in state.win_seats) or "-"
    if running:
        if state.win_seats:
            raise _bad("winners while the game is running", "win", text)
        if state.opts.win_at_20 == "immediate":
            for s in range(state.num_players):
                if state.points(s) >= WIN_POINTS:
                    raise _bad(f"P{s + 1} has {state.points(s)} points, so the game is over (NS-15)", "p" + str(s + 1))
        return
    keys = [state.tie_key(s) for s in range(state.num_players)]
    best = max(keys)
    expected = [s for s in range(state.num_players) if keys[s] == best]
    if state.win_seats != expected:
        shown = ",".join(str(s + 1) for s in expected)
        raise _bad(f"the winners by points and tie-breaks are {shown} (NS-15)", "win", text)


# ---------------------------------------------------------------------- 14–16: solo
def _check_solo(state: SoloState) -> None:
    opts = state.game.options
    keep = SOLO_KEEP_WITH_EVENTS if opts.solo_keep_events else SOLO_KEEP
    for name, cards in (("tree", [slot[0] for limb in state.limbs for slot in limb]), ("deck", state.deck)):
        for kind in cards:
            if kind not in keep:
                raise _bad(f"{NAME[kind]} is not in the solo deck (NS-17)", name, kind)
    for name, cards in (("out", state.out_known), ("hidden", state.out_hidden)):
        for kind in cards:
            if kind not in keep:
                raise _bad(f"{NAME[kind]} is not in the solo deck (NS-17)", name, kind)
    box = Counter(kind for kind in expand(state.cards) if kind not in keep)
    market = [p for p in MARKET if box[p]]
    box.subtract(market)
    held = [*state.market, *state.powers[0]]
    if any(p not in MARKET for p in held) or sorted(held, key=MARKET.index) != market:
        raise _bad(
            "the market and the board hold one of each market power between them (NS-17 h)",
            "market",
            ",".join(state.market),
        )
    if Counter(state.box) != +box:
        raise _bad("the box holds exactly the cards the solo deck leaves out (NS-17)", "box", ",".join(state.box))
    if state.stick_b[0] or state.stick_g[0] or state.sappy_next[0] or state.sappy_now[0]:
        raise _bad("no Sticky Fingers track and no Sappy Feet in solo (NS-17)", "p1")
    if state.gone_b or state.gone_g:
        raise _bad("no acorns leave play in solo (NS-17)", "gone", f"{state.gone_b}.{state.gone_g}")
    _check_solo_phase(state)


def _check_solo_phase(state: SoloState) -> None:
    """Rules 15 and 16."""
    from . import payment

    result = state.result or "-"
    running = _running(state)
    points = state.points(0)
    owl = state.waiting_owl()
    if running != (result == "-"):
        raise _bad("the result is - exactly while the game runs", "result", result)
    if running and points >= WIN_POINTS:
        raise _bad(f"{points} points: the game is won and over (NS-17 d)", "phase", state.phase)
    if not running:
        if (result == "won") != (points >= WIN_POINTS):
            raise _bad(f"won exactly at 20 points, and the score is {points} (NS-17 d)", "result", result)
        if result == "lost" and (owl is None or state.wealth() >= payment.PRICE):
            raise _bad("lost means a face-up Owl the wealth cannot bribe (NS-17 e)", "result", result)
        if result != "lost" and owl is not None:
            raise _bad("a face-up Owl on the tree is bribed or the game is lost (NS-17 e)", "tree")
        return
    if state.phase == "bribe":
        if owl is None:
            raise _bad("phase=bribe, but no Owl waits on the tree (NS-17k)", "phase", state.phase)
        if state.wealth() < payment.PRICE or not payment.alternatives(state, payment.PRICE):
            raise _bad("phase=bribe waits for a choice between ways to pay 3 points (NS-17k)", "phase", state.phase)
        return
    if owl is not None:
        raise _bad("a face-up Owl on the tree must be bribed (NS-17 e)", "tree")
    if state.phase == "fools":
        if FOOLS not in state.out_known or len(state.fools_places(0)) < 2:
            raise _bad(
                "phase=fools needs Fool's Gold out of play and goldens in two places (NS-8)", "phase", state.phase
            )
        return
    limit = state.game.options.solo_max_actions
    if state.actions_taken >= limit:
        raise _bad(f"solo_max_actions={limit} actions taken: the game is over", "solo", str(state.actions_taken))
    if not state.can_gain():
        raise _bad("nothing is left within reach, so the game is over (NS-17 g)", "phase", state.phase)
