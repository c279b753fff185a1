"""Which parsed S'Quarrels positions are real: the rules ``notation.read`` enforces once every field parses.

Each rule below describes something the state machine in ``state.py`` never produces; a position breaking one
is refused with :class:`InvalidNotationError` naming the field. Every position the rules *can* produce is
accepted (the conformance kit round-trips thousands of them through the reader). ``M`` is the most one seat
can score in a round: all 25 sets (75 at face value, 225 per card) plus the Golden's 5 with the standard
deck (``most_in_a_round`` for another).

Cards
 1. Conservation: the zones hold exactly the deck's cards (the 120 of the standard deck, or the counts of
    ``deck_composition``, SQ-26; without the Golden once it is out of the match),
    the error naming the zone where a kind runs over; Action cards only in the Deck or Discard and stored
    sets only of Number cards (the parser refuses them where they cannot be).
 2. Winter is in the Deck while a round runs and in Discard once the match is over: drawing it ends the round
    at once (SQ-15), and every new round starts from the whole deck (SQ-17).
 3. ``golden_out=1`` only under ``golden_lost_scope=match``; the Golden in Discard under that option means
    ``golden_out=1``; with the Golden gone from Discard too, the round is 2 or later (SQ-7).
 4. A set completed by the Golden (``*``) only under ``golden_wild_in_sets`` (SQ-8).
 5. Hand sizes are bounded only by conservation: there is no hand limit (SQ-3), and all 95 hand cards can
    gather in one hand (a 2-player Hoard winner late in a round takes back everything discarded).

Match
 6. ``round`` ≥ 1, and 1 in ``single_round`` play; ``last`` is ``-`` exactly while round 1 runs.
 7. After k finished rounds each total lies in [−5k, M·k]; the last round's scores lie in [−5, M], at most
    one of them negative (one Rotten) and their sum in [−5, M]; the totals before it (totals − last) obey
    the same bounds for k − 1 rounds (so in round 2 the totals equal ``last``).
 8. A match still running, and the match as the last round began, had no unique total at or above the
    target; equal leaders play on only under ``target_tie=extra_round`` (SQ-18). In ``single_round`` play
    the totals are 0 until the round ends, then equal ``last``.
 9. From round 2 the dealer is a winner of the last round: a top round score, then a top total (SQ-19).
10. ``winners`` is ``-`` while the match runs; once it is over, exactly the seats the rules crown: the top
    round scores (single round), or the top total, which reached the target (SQ-18, SQ-23).

Turn
11. ``whirl=1`` only in the drawing phase, under ``whirlwind_draw=mandatory_to_7`` (SQ-4).
12. In the storing phase the active seat holds a card (an empty hand ends the turn at once).
13. The drawer of a pending Quarrel or Hoard race is the active seat, and the card drawn is in Discard: a
    Quarrel for a pending Quarrel, a Hoard for a race, a Whirlwind for ``whirl=1``.

Quarrel (SQ-5, SQ-6, SQ-21)
14. The live seats are listed clockwise from the drawer, each once; commits come from live seats, once
    each, and not from all of them (the last commit reveals at once); a live seat yet to commit holds a card.
15. The pot splits into comparisons, each listed clockwise from the drawer; each ended in a tie at the top
    (a unique top card ends the Quarrel, so the Golden is never left in the pot), and the next comparison's
    seats, or the live seats after the last one, are tied seats: all of them under ``any_out_draws``, at
    least two under ``drop_out``; tied seats left out hold no card.
16. Seats outside the Quarrel (outside the first comparison, or outside the live seats before any reveal)
    hold no card: everyone holding one takes part.

Hoard race (SQ-11, SQ-12, SQ-12b)
17. The eligible seats are exactly the other seats clockwise from the drawer's left (the drawer last under
    ``hoard_drawer_may_race``): at least two, so a 2-player race needs that option.
18. ``realtime`` races record passes only, the commit modes commits only; each from an eligible seat, once,
    and not from all of them (the last answer closes the race).
19. Under ``hoard_empty_skips`` the Hoard Pile of a race is not empty.

Knowledge (SQ-24)
20. ``known``: a seat knows only cards the holder really has (in hand, as its pending Quarrel play, or among
    its own Hoard discards), and
    each seat knows at least what every seat knows (the ``*`` list) of that hand; the parser refuses a
    seat listed as the observer of its own hand and a pair listed twice.

The parser (``notation.py``) also refuses text over 10,000 characters, numbers that are not plain ASCII
digits, and a generator outside its range (seed in [−2**127, 2**128), counter in [0, 2**64)).

Not refused, though a real game never gets there: fewer than seven hand cards per seat outside the Deck
(every round deals seven each, and no card returns to the Deck). Scenario tests rely on such compact
positions, and they play like any other. Facts that only the history could show (who discarded which Hoard
card, in what order the Action cards in Discard were drawn) cannot be checked from a position.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from oakwood.engine import InvalidNotationError

from .cards import ALL_KINDS, GOLDEN, HAND_KINDS, NUMBERS, SET_SIZE, SPECIAL_BONUS, TITLES, WHIRLWIND, WINTER
from .cards import HOARD as HOARD_CARD
from .cards import QUARREL as QUARREL_CARD
from .state import DRAWING, OVER, QUARREL, RACE, STORING

if TYPE_CHECKING:
    from .state import SQuarrelsState


def most_in_a_round(counts: tuple[int, ...], per_card: bool, wild: bool) -> int:
    """``M``: the most one seat can score in a round with this deck — every set the Number cards make (75 at
    face value with the standard deck: 10 sets of 1, 8 of 2, 6 of 3, 4 of 4, 3 of 5, RULINGS §1.1), plus the
    Golden's 5 in hand, or, under ``golden_wild_in_sets``, the set it completes if that is worth more."""
    scale = SET_SIZE if per_card else 1
    sets = sum(counts[v] // SET_SIZE * v for v in NUMBERS) * scale
    bonus = SPECIAL_BONUS if counts[GOLDEN] else 0
    if wild and counts[GOLDEN]:  # the Golden completes a pair left over: one more set instead of its +5
        pairs = [v for v in NUMBERS if counts[v] % SET_SIZE == SET_SIZE - 1]
        bonus = max([bonus, *(v * scale for v in pairs)])
    return sets + bonus


def refuse_unreachable(state: SQuarrelsState) -> None:
    """Raise :class:`InvalidNotationError` naming the field if the parsed ``state`` is not a real position."""
    _check_cards(state)
    _check_match(state)
    _check_turn(state)
    if state.phase == QUARREL:
        _check_quarrel(state)
    if state.phase == RACE:
        _check_race(state)
    _check_known(state)


def _check_known(state: SQuarrelsState) -> None:  # rule 20
    for holder, row in state.knowledge().items():
        have = state.knowable_cards(holder)
        public = row[holder]
        for observer, vector in enumerate(row):
            who = "every seat" if observer == holder else f"P{observer + 1}"
            for card in range(HAND_KINDS):
                if vector[card] > have[card]:
                    raise _refuse("known", f"{who} cannot know of more {TITLES[card]} cards than P{holder + 1} holds")
                if vector[card] < public[card]:
                    raise _refuse("known", f"{who} must know at least what every seat knows of P{holder + 1}'s hand")


def _refuse(field: str, message: str) -> InvalidNotationError:
    return InvalidNotationError(message, field=field)


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ",".join(f"P{s + 1}" for s in seats) or "nobody"


# ---------------------------------------------------------------------------------------------- cards
def _zones(state: SQuarrelsState) -> list[tuple[str, list[int]]]:
    """Card counts by kind in each zone, named by the notation field that writes it."""
    hands = [sum(hand[c] for hand in state.hands) for c in range(HAND_KINDS)] + [0] * (ALL_KINDS - HAND_KINDS)
    storage = [0] * ALL_KINDS
    for sets in state.storage:
        for entry in sets:
            if entry > 10:
                storage[entry - 10] += 2
                storage[GOLDEN] += 1
            else:
                storage[entry] += SET_SIZE
    deck = [0] * ALL_KINDS
    for card in state.deck:
        deck[card] += 1
    hoard = [0] * ALL_KINDS
    for card, _ in state.hoard:
        hoard[card] += 1
    quarrel = [0] * ALL_KINDS
    for card in [*state.q_commits.values(), *(c for c, _ in state.q_pot)]:
        quarrel[card] += 1
    return [
        ("hands", hands), ("storage", storage), ("deck", deck), ("hoard", hoard),
        ("discard", state.action_discard[:]), ("quarrel", quarrel),
    ]  # fmt: skip


def _check_conservation(state: SQuarrelsState) -> None:
    """Rule 1: every card of the deck is in exactly one zone (the Golden gone once out of the match)."""
    expected = list(state.opts.cards)  # the deck of the game's options (SQ-26)
    if state.golden_out:
        expected[GOLDEN] = min(state.action_discard[GOLDEN], 1)
    zones = _zones(state)
    for card in range(ALL_KINDS):
        found = [(name, counts[card]) for name, counts in zones if counts[card]]
        total = sum(count for _, count in found)
        if total == expected[card]:
            continue
        where = ", ".join(f"{name} {count}" for name, count in found) or "none anywhere"
        message = f"the cards do not add up: {total} × {TITLES[card]} in play ({where}); the game has {expected[card]}"
        if total < expected[card]:
            raise _refuse("deck", message + ": the missing ones belong in the Deck")
        running = 0
        for name, count in found:  # name the zone where the count first goes over
            running += count
            if running > expected[card]:
                raise _refuse(name, message)


def _check_cards(state: SQuarrelsState) -> None:
    _check_conservation(state)
    opts = state.opts
    running = state.phase != OVER
    winter_discarded = state.action_discard[WINTER] > 0
    if running and winter_discarded:  # rule 2
        raise _refuse("discard", "Winter is in Discard, but drawing it ends the round at once (SQ-15)")
    if not running and not winter_discarded:
        raise _refuse("discard", "the match is over, so the Winter that ended it is in Discard")
    golden_discarded = state.action_discard[GOLDEN] > 0
    if state.golden_out:  # rule 3
        if opts.golden_lost_scope != "match":
            raise _refuse("golden_out", "the Golden is lost for the match only under golden_lost_scope=match")
        if not golden_discarded and state.round_no < 2:
            raise _refuse("golden_out", "a Golden lost this round is still in Discard until the round ends")
    elif golden_discarded and opts.golden_lost_scope == "match":
        raise _refuse("golden_out", "a Golden played into Discard under golden_lost_scope=match is out of the match")
    if not opts.golden_wild_in_sets and any(e > 10 for sets in state.storage for e in sets):  # rule 4
        raise _refuse("storage", "a set completed by the Golden ('*') needs golden_wild_in_sets (SQ-8)")


# ---------------------------------------------------------------------------------------------- match
def _running_leaders_ok(state: SQuarrelsState, totals: list[int]) -> bool:
    """Whether a match with these totals goes on to another round (SQ-18)."""
    best = max(totals)
    if best < state.opts.target_score:
        return True
    return totals.count(best) > 1 and state.opts.target_tie == "extra_round"


def _check_bounds(what: str, totals: list[int], rounds: int, most: int) -> None:
    low, high = -SPECIAL_BONUS * rounds, most * rounds
    if any(not low <= t <= high for t in totals) or not low <= sum(totals) <= high:
        plural = "round" if rounds == 1 else "rounds"
        raise _refuse("totals", f"{what} out of reach after {rounds} finished {plural} (a round scores −5 to {most})")


def _check_match(state: SQuarrelsState) -> None:
    opts = state.opts
    over = state.phase == OVER
    last = state.last_round
    if state.round_no < 1:  # rule 6
        raise _refuse("round", "rounds are numbered from 1")
    if opts.single_round and state.round_no != 1:
        raise _refuse("round", "a single-round game has only round 1")
    if (last is None) != (state.round_no == 1 and not over):
        if last is None:
            raise _refuse("last", "a finished round has scores: give the last round's scores")
        raise _refuse("last", "no round has finished yet in round 1, so 'last' is '-'")
    most = most_in_a_round(opts.cards, opts.set_scoring == "per_card", opts.golden_wild_in_sets)
    if last is not None:  # rule 7: the last round alone
        if any(not -SPECIAL_BONUS <= v <= most for v in last) or not -SPECIAL_BONUS <= sum(last) <= most:
            raise _refuse("last", f"a round scores −5 to {most} a seat, and −5 to {most} in all")
        if sum(1 for v in last if v < 0) > 1:
            raise _refuse("last", "only the Rotten scores below zero, so at most one round score is negative")
    totals = state.totals
    if opts.single_round:  # rule 8 (SQ-23)
        if totals != (last if last is not None else [0] * state.num_players):
            raise _refuse("totals", "a single-round game's totals are 0, then its round scores")
    else:
        finished = state.round_no if over else state.round_no - 1
        _check_bounds("totals", totals, finished, most)  # rule 7
        if last is not None:
            before = [t - v for t, v in zip(totals, last, strict=True)]
            _check_bounds("totals before the last round", before, finished - 1, most)
            if not _running_leaders_ok(state, before):  # rule 8
                raise _refuse("totals", "the match had already been won before the last round (SQ-18)")
        if not over and not _running_leaders_ok(state, totals):
            raise _refuse("totals", "a total has reached the target with no tie, so the match is over (SQ-18)")
    if not over and last is not None and state.dealer not in _round_winners(state, last):  # rule 9
        raise _refuse("dealer", f"the winner of the last round deals (SQ-19): {_seats(_round_winners(state, last))}")
    _check_winners(state)


def _round_winners(state: SQuarrelsState, last: list[int]) -> list[int]:
    """SQ-19: the seats that may deal after a round: top round score, then top total among those."""
    best = max(last)
    tied = [s for s in range(state.num_players) if last[s] == best]
    best_total = max(state.totals[s] for s in tied)
    return [s for s in tied if state.totals[s] == best_total]


def _check_winners(state: SQuarrelsState) -> None:  # rule 10
    if state.phase != OVER:
        if state.winners_:
            raise _refuse("winners", "the match is still running, so nobody has won yet")
        return
    if state.opts.single_round:
        scores = state.last_round or []
        expected = [s for s in range(state.num_players) if scores[s] == max(scores)]
    else:
        best = max(state.totals)
        expected = [s for s in range(state.num_players) if state.totals[s] == best]
        if best < state.opts.target_score:
            raise _refuse("totals", "the match is over, so a total reached the target (SQ-18)")
        if len(expected) > 1 and state.opts.target_tie != "shared_win":
            raise _refuse("totals", "equal top totals play another round under target_tie=extra_round (SQ-18)")
    if state.winners_ != expected:
        raise _refuse("winners", f"the winners of this match are {_seats(expected)}")


# ---------------------------------------------------------------------------------------------- turn
def _check_turn(state: SQuarrelsState) -> None:
    if state.whirl_forced:  # rule 11
        if state.opts.whirlwind_draw != "mandatory_to_7":
            raise _refuse("whirl", "a duty to draw to 7 exists only under whirlwind_draw=mandatory_to_7 (SQ-4)")
        if state.phase != DRAWING:
            raise _refuse("whirl", "a duty to draw to 7 exists only while drawing (SQ-4)")
        if not state.action_discard[WHIRLWIND]:  # rule 13
            raise _refuse("discard", "a duty to draw to 7 follows a Whirlwind, which is then in Discard")
    drawn = {QUARREL: QUARREL_CARD, RACE: HOARD_CARD}.get(state.phase)
    if drawn is not None and not state.action_discard[drawn]:
        raise _refuse("discard", f"the {TITLES[drawn]} that started this {state.phase} is in Discard (SQ-4)")
    if state.phase == STORING and state.hand_sizes[state.active] == 0:  # rule 12
        raise _refuse("hands", "in the storing phase the active player holds a card (an empty hand ends the turn)")


# ---------------------------------------------------------------------------------------------- quarrel
def _check_quarrel(state: SQuarrelsState) -> None:
    n = state.num_players
    drawer = state.q_drawer
    if drawer != state.active:  # rule 13
        raise _refuse("quarrel", "the Quarrel's drawer is the active player")

    def offset(seat: int) -> int:
        return (seat - drawer) % n

    live = state.q_live
    if not live:
        raise _refuse("quarrel", "a pending Quarrel has live players")
    if any(offset(a) >= offset(b) for a, b in pairwise(live)):  # rule 14
        raise _refuse("quarrel", "live players are listed once each, clockwise from the drawer")
    if len(state.q_commits) >= len(live):
        raise _refuse("quarrel", "the last commit reveals the Quarrel, so someone live is still to play")
    for seat in live:
        if seat not in state.q_commits and state.hand_sizes[seat] == 0:
            raise _refuse("quarrel", f"P{seat + 1} is to play in the Quarrel but holds no card")
    # Rule 15: split the pot into its comparisons (each clockwise from the drawer).
    comparisons: list[list[tuple[int, int]]] = []
    for card, seat in state.q_pot:
        if comparisons and offset(seat) > offset(comparisons[-1][-1][1]):
            comparisons[-1].append((card, seat))
        else:
            comparisons.append([(card, seat)])
    following = [[seat for _, seat in plays] for plays in comparisons[1:]] + [list(live)]
    dropped: list[int] = []
    for plays, next_seats in zip(comparisons, following, strict=False):  # no comparison yet: nothing to pair
        top = max(card for card, _ in plays)
        tied = [seat for card, seat in plays if card == top]
        if len(tied) < 2:
            raise _refuse("quarrel", "a comparison with a unique top card ends the Quarrel, so it is not in the pot")
        _check_next_comparison(state, tied, next_seats)
        dropped.extend(s for s in tied if s not in next_seats)
    first = [seat for _, seat in comparisons[0]] if comparisons else list(live)
    outside = [s for s in range(n) if (s not in first or s in dropped) and state.hand_sizes[s]]  # rule 16
    if outside:
        raise _refuse(
            "quarrel", f"{_seats(outside)} hold cards, so they would be in the Quarrel: everyone holding a card plays"
        )


def _check_next_comparison(state: SQuarrelsState, tied: list[int], next_seats: list[int]) -> None:
    """SQ-6: who plays again after a tie, by ``quarrel_exhaustion``."""
    if any(s not in tied for s in next_seats):
        raise _refuse("quarrel", "only the tied players play again (SQ-6)")
    mode = state.opts.quarrel_exhaustion
    if mode == "any_out_draws" and next_seats != tied:
        raise _refuse("quarrel", "a tied player out of cards draws the Quarrel under any_out_draws (SQ-6)")
    if mode == "drop_out" and len(next_seats) < 2:
        raise _refuse("quarrel", "a lone tied player still holding cards wins at once under drop_out (SQ-6)")


# ---------------------------------------------------------------------------------------------- race
def _check_race(state: SQuarrelsState) -> None:
    opts = state.opts
    n = state.num_players
    drawer = state.r_drawer
    if drawer != state.active:  # rule 13
        raise _refuse("race", "the Hoard's drawer is the active player")
    others = tuple((drawer + i) % n for i in range(1, n))
    expected = (*others, drawer) if opts.hoard_drawer_may_race else others
    if state.r_eligible != expected:  # rule 17
        raise _refuse("race", f"the players racing are {_seats(expected)}, in that order (SQ-11)")
    if len(expected) < 2:
        raise _refuse("race", "with 2 players the other player takes the Hoard Pile at once: no race (SQ-11)")
    answered: list[int] = list(state.r_passed)
    if opts.hoard_race == "realtime":  # rule 18
        if state.r_commits:
            raise _refuse("race", "a realtime race has no commits (SQ-12)")
    elif state.r_passed:
        raise _refuse("race", f"a {opts.hoard_race} race records commits, not passes (SQ-12)")
    answered.extend(state.r_commits)
    if len(set(answered)) != len(answered) or any(s not in expected for s in answered):
        raise _refuse("race", "every answer comes from a racing player, once")
    if len(answered) >= len(expected):
        raise _refuse("race", "the last answer closes the race, so someone is still to answer")
    if opts.hoard_empty_skips and not state.hoard:  # rule 19
        raise _refuse("hoard", "an empty Hoard Pile starts no race under hoard_empty_skips (SQ-11)")
