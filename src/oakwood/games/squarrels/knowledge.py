"""What each seat knows about the other hands (SQ-24, perfect recall), kept in the state.

``known[holder]`` is a row of one count vector per seat (over the hand kinds, Rotten…Golden): ``row[o]`` for
``o != holder`` counts the cards seat ``o`` knows the holder to have, and ``row[holder]`` counts the cards
*every* seat knows it to have (learnt from public events: a Quarrel's reveal and its outcome). Each private
count is at least the public one. A holder nobody knows anything about has no row.

"To have" means: in the holder's hand, or face down where only the holder saw it go — its pending Quarrel
play (secret until the reveal, which then removes the revealed card) and its own discards in the current
Hoard Pile. So a face-down discard changes no knowledge at all (the hot path costs nothing): a known 5 is
still "in the hand or among its discards", and a world places it in either. Only when the Hoard Pile goes
to another seat do those discards leave, and each known kind then drops by the holder's discards taken.

Rows are tuples and the dict is never changed in place (every update builds a new one), so clones share it.
Every update is a sound deduction: it never claims a card the seat cannot be sure of (SQ-24 lists them).
"""

from __future__ import annotations

from typing import Any, Final

from .cards import GOLDEN, HAND_KINDS, SET_SIZE

Row = tuple[tuple[int, ...], ...]
Known = dict[int, Row]
#: The rules log what they reveal as a chain ``(event, older chain)``, newest first, folded into the dict only
#: when asked (``replay``): revealing events then cost one small tuple, and discards and draws nothing.
Log = tuple[tuple[Any, ...], Any] | None

_NOTHING: Final = (0,) * HAND_KINDS


def nothing_row(players: int) -> Row:
    """A row of zero vectors."""
    return (_NOTHING,) * players


def _store(known: Known, holder: int, row: Row) -> Known:
    """A new dict with ``holder``'s row replaced (dropped when it knows nothing)."""
    out = dict(known)
    if any(any(vector) for vector in row):
        out[holder] = row
    else:
        out.pop(holder, None)
    return out


def _minus_each(vector: tuple[int, ...], count: int = 1) -> tuple[int, ...]:
    return tuple([c - count if c > count else 0 for c in vector])


def lose_unseen(known: Known, holder: int, count: int = 1) -> Known:
    """``holder`` lost ``count`` cards that the observers did not see (SQ-24 b): any known card may be among
    them, so each known kind drops by ``count`` (two known 5s and one lost card leave one known 5)."""
    row = known.get(holder)
    if row is None:
        return known
    return _store(known, holder, tuple([_minus_each(v, count) for v in row]))


def lose_shown(known: Known, holder: int, card: int, count: int = 1) -> Known:
    """``holder`` lost ``count`` cards of kind ``card`` in plain sight (a stored set, a revealed play)."""
    row = known.get(holder)
    if row is None:
        return known
    new: list[tuple[int, ...]] = []
    for vector in row:
        if vector[card]:
            changed = list(vector)
            changed[card] = max(0, changed[card] - count)
            vector = tuple(changed)
        new.append(vector)
    return _store(known, holder, tuple(new))


def gain_shown(known: Known, holder: int, cards: list[int], players: int) -> Known:
    """``holder`` took ``cards`` in plain sight (a Quarrel's pot, or played cards returned by a draw)."""
    if not cards:
        return known
    row = known.get(holder) or nothing_row(players)
    new: list[tuple[int, ...]] = []
    for vector in row:  # every seat's vector, the public one included: everybody saw it
        changed = list(vector)
        for card in cards:
            changed[card] += 1
        new.append(tuple(changed))
    return _store(known, holder, tuple(new))


def gain_private(known: Known, holder: int, cards_by_seat: dict[int, list[int]], players: int) -> Known:
    """``holder`` took cards that only some seats know: ``cards_by_seat[o]`` are known to seat ``o`` (its own
    Hoard discards when ``holder`` wins the pile, the card an Ambush took from ``o``)."""
    if not any(cards_by_seat.values()):
        return known
    row = list(known.get(holder) or nothing_row(players))
    for seat, cards in cards_by_seat.items():
        if seat == holder or not cards:
            continue
        changed = list(row[seat])
        for card in cards:
            changed[card] += 1
        row[seat] = tuple(changed)
    return _store(known, holder, tuple(row))


def ambushed(known: Known, taker: int, victim: int, card: int, players: int) -> Known:
    """An Ambush took ``card`` from ``victim`` (SQ-13): the taker knows which card left the victim's hand and
    the victim knows the taker now holds it; for every other seat the victim lost an unseen card."""
    row = known.get(victim)
    if row is not None:
        new = []
        for seat, vector in enumerate(row):
            if seat == taker:
                if vector[card]:
                    changed = list(vector)
                    changed[card] -= 1
                    vector = tuple(changed)
            else:
                vector = _minus_each(vector)
            new.append(vector)
        known = _store(known, victim, tuple(new))
    return gain_private(known, taker, {victim: [card]}, players)


def held(known: Known, observer: int, holder: int) -> tuple[int, ...]:
    """What ``observer`` knows ``holder`` to have (``observer == holder``: what every seat knows)."""
    row = known.get(holder)
    return _NOTHING if row is None else row[observer]


def world_view(known: Known, seat: int, players: int) -> Known:
    """The knowledge a world of ``seat`` carries: ``seat``'s own, and for every other seat only what is
    public (what others learnt in private, ``seat`` cannot know; SQ-24 c)."""
    out: Known = {}
    for holder, row in known.items():
        public = row[holder]
        new = tuple([row[seat] if o == seat and o != holder else public for o in range(players)])
        out = _store(out, holder, new)
    return out


def replay(known: Known, log: Log, players: int) -> Known:
    """``known`` with the chained events applied, oldest first (the event kinds the rules log in state.py)."""
    events: list[tuple[Any, ...]] = []
    while log is not None:
        events.append(log[0])
        log = log[1]
    events.reverse()  # not ``reversed(events)``: mypyc (2.4.1) crashes on ``for … in reversed(a list of Any)``
    for event in events:
        kind = event[0]
        if kind == "reveal":  # the plays of one Quarrel comparison: (card, seat) pairs
            for card, seat in event[1]:
                known = lose_shown(known, seat, card)
        elif kind == "won":  # ("won", winner, pot, golden lost): the winner takes the pot in plain sight
            taken = [card for card, _ in event[2]]
            if event[3]:  # SQ-7: a played Golden went to Discard instead
                taken.remove(GOLDEN)
            known = gain_shown(known, event[1], taken, players)
        elif kind == "drawn":  # a drawn Quarrel: each played card goes back to its player
            for card, seat in event[1]:
                known = gain_shown(known, seat, [card], players)
        elif kind == "store":  # ("store", seat, value, wild): a set laid down in plain sight
            _, seat, value, wild = event
            if wild:
                known = lose_shown(lose_shown(known, seat, value, 2), seat, GOLDEN)
            else:
                known = lose_shown(known, seat, value, SET_SIZE)
        elif kind == "hoard":  # ("hoard", winner, ((card, discarder), ...)): the winner takes the pile
            winner = event[1]
            own: dict[int, list[int]] = {}
            for card, owner in event[2]:
                if owner != winner:
                    own.setdefault(owner, []).append(card)
            for owner, cards in own.items():  # a known card among these discards has left its discarder
                known = lose_unseen(known, owner, len(cards))
            known = gain_private(known, winner, own, players)  # each seat knows its own discards went there
        else:  # ("ambush", taker, victim, card)
            known = ambushed(known, event[1], event[2], event[3], players)
    return known
