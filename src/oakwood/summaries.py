"""What a person reads when a S'Quarrels round, a Barrell battle or a game ends: what each seat scored, and why.

Plain data, drawn by the terminal (``cli/summaries.py``, Rich) and the browser (``Summary.to_json``, the web
client). Each summary is built from what one seat may see only: the event views of
``state.events_seen_by(seat, 0)`` up to the event that ended the round or battle, or the final observation
(public at the end). Nothing is read from the state itself, so a summary shows no more than the log told.

Seats are named by the labels the caller gives (display names in the browser, ``P1 (you)`` in a terminal);
text the games write (``describe_event``) names seats ``P1``…, which :func:`oakwood.engine.name_seats` replaces.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oakwood.engine import Game, name_seats

EventView = Mapping[str, Any]
#: What the running score counts, by game (the final table's column heading).
SCORE_NAMES: Mapping[str, str] = {"barrell": "Battles won", "squarrels": "Total", "nutty": "Points"}
#: S'Quarrels: the Golden Acorn held at Winter is worth this much, the Rotten Acorn costs as much (SQ-16).
SQUARRELS_BONUS = 5
#: Nutty Squirrels solo: the points that win (NS-17).
SOLO_TARGET = 20


@dataclass(frozen=True)
class Cards:
    """A cell of cards shown face up: their codes (the browser draws each card) and how a text reads them."""

    codes: tuple[str, ...]
    text: str


Cell = str | Cards


@dataclass(frozen=True)
class Row:
    """One seat's line: its cells (the first is the seat's name) and whether it won the round or battle."""

    seat: int
    cells: tuple[Cell, ...]
    won: bool = False


@dataclass(frozen=True)
class Summary:
    """A table of what each seat scored, a title that gives the outcome, and what happened on the way."""

    #: the event kind that ended what is summarised (``round_end``, ``battle_result``), or ``game_over``
    kind: str
    title: str
    columns: tuple[str, ...]
    #: which columns hold numbers (drawn right-aligned)
    numeric: frozenset[int]
    rows: tuple[Row, ...]
    #: what happened before the scores (a Barrell battle's effects), each a sentence
    lines: tuple[str, ...] = ()
    #: small print under the table
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON values (a card cell is ``{"cards": [...], "text": ...}``)."""

        def cell(value: Cell) -> Any:
            return {"cards": list(value.codes), "text": value.text} if isinstance(value, Cards) else value

        return {
            "kind": self.kind,
            "title": self.title,
            "columns": list(self.columns),
            "numeric": sorted(self.numeric),
            "rows": [{"seat": r.seat, "won": r.won, "cells": [cell(c) for c in r.cells]} for r in self.rows],
            "lines": list(self.lines),
            "notes": list(self.notes),
        }


def score_name(game: str) -> str:
    """The final table's name for the score of ``game`` (``Score`` for a game this module does not know)."""
    return SCORE_NAMES.get(game, "Score")


def ending_kinds(game: str) -> frozenset[str]:
    """The event kinds after which ``game`` shows a summary."""
    return frozenset(_BUILDERS.get(game, {}))


def summary(
    game: Game[Any], views: Sequence[EventView], index: int, labels: Sequence[str], seat: int | None = None
) -> Summary | None:
    """The summary of the round or battle that ``views[index]`` ended, or None if that event ends nothing."""
    builder = _BUILDERS.get(game.name, {}).get(str(views[index]["kind"]))
    if builder is None:
        return None
    return builder(game, views, index, labels, seat)


def latest_ending(game: Game[Any], views: Sequence[EventView], since: int = 0) -> int | None:
    """The index of the last event from ``since`` on that ends a round or battle, or None."""
    kinds = ending_kinds(game.name)
    for i in range(len(views) - 1, since - 1, -1):
        if views[i]["kind"] in kinds:
            return i
    return None


def _since(views: Sequence[EventView], index: int, start_kinds: Sequence[str]) -> list[EventView]:
    """The views after the last one of ``start_kinds`` before ``index``, up to ``index`` itself."""
    start = 0
    for i in range(index - 1, -1, -1):
        if views[i]["kind"] in start_kinds:
            start = i + 1
            break
    return list(views[start : index + 1])


def signed(value: int) -> str:
    """``+5``, ``-5``, ``0``."""
    return f"{value:+d}" if value else "0"


def _leaders(totals: Sequence[int], labels: Sequence[str]) -> str:
    best = max(totals)
    return f"{' and '.join(labels[s] for s, t in enumerate(totals) if t == best)} with {best}"


# ---------------------------------------------------------------------- S'Quarrels
def squarrels_round(
    game: Game[Any], views: Sequence[EventView], index: int, labels: Sequence[str], seat: int | None
) -> Summary:
    """Each player's stored sets and their points, the Golden or Rotten shown from the hand at Winter (SQ-25),
    the round score and the match total. Games stored before SQ-25 did not show the held cards: their bonus is
    what the round score leaves once the sets are counted (+5 the Golden, −5 the Rotten, 0 neither or both)."""
    end = views[index]
    per_card = getattr(game.options, "set_scoring", "") == "per_card"
    sets: list[list[str]] = [[] for _ in labels]
    points = [0] * len(labels)
    for view in _since(views, index, ("round_start",)):
        if view["kind"] == "store":
            value = int(view["value"])
            sets[view["seat"]].append(f"[{value}{value}G]" if view["with_golden"] else f"[{value}{value}{value}]")
            points[view["seat"]] += value * 3 if per_card else value
    held: list[list[str]] | None = end.get("held")
    scores = [int(s) for s in end["scores"]]
    best = max(scores)
    rows = []
    for s, label in enumerate(labels):
        bonus = scores[s] - points[s]
        if held is not None:
            shown = sorted(held[s], key=("golden", "rotten").index)
            words = " and ".join(name.capitalize() for name in shown)
            special: Cell = Cards(tuple(shown), f"{words} {signed(bonus)}") if shown else "—"
        elif bonus >= SQUARRELS_BONUS:
            special = f"Golden {signed(bonus)}"
        elif bonus <= -SQUARRELS_BONUS:
            special = f"Rotten {signed(bonus)}"
        else:
            special = "—"
        cells = (label, " ".join(sets[s]) or "—", str(points[s]), special, signed(scores[s]), str(end["totals"][s]))
        rows.append(Row(s, cells, won=scores[s] == best))
    if held is None:
        note = "“—” under Golden / Rotten: neither held at Winter, or both (they cancel)."
    else:
        note = "At Winter each player shows the Golden and Rotten Acorns they hold (+5 and −5, SQ-16, SQ-25)."
    return Summary(
        kind="round_end",
        title=f"Winter ends round {end['round']} · leading: {_leaders(end['totals'], labels)}",
        columns=("Seat", "Sets stored", "Sets", "Golden / Rotten", "Round", "Total"),
        numeric=frozenset({2, 4, 5}),
        rows=tuple(rows),
        notes=(note,),
    )


# ---------------------------------------------------------------------- Barrell
#: Barrell events that tell what the face cards, the Jokers and the hearts did at the reveal.
_BARRELL_EFFECTS = ("swap", "rotate", "joker", "gift", "queen_zone", "destroy", "return", "take", "provisional_scores")
_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_JOKER_NAMES = {"RJ": "Red Joker", "BJ": "Black Joker"}


def barrell_card(name: str) -> str:
    """A Barrell card as the board shows it: ``9H`` → ``9♥``, ``RJ`` → ``Red Joker``."""
    if name in _JOKER_NAMES:
        return _JOKER_NAMES[name]
    return name[:-1] + _SUIT_SYMBOLS.get(name[-1:], name[-1:])


def barrell_battle(
    game: Game[Any], views: Sequence[EventView], index: int, labels: Sequence[str], seat: int | None
) -> Summary:
    """The fields as revealed, what the Kings, Queens, Jacks and Jokers did, the hearts given, the battle
    scores, who won it and the battles won so far."""
    end = views[index]
    battle_views = _since(views, index, ("battle",))
    reveal = next((v for v in battle_views if v["kind"] == "reveal"), None)

    def describe(view: EventView) -> str:
        return name_seats(game.describe_event(view), labels)

    lines = [describe(v) for v in battle_views if v["kind"] == "battle_ends"]
    lines += [describe(v) for v in battle_views if v["kind"] in _BARRELL_EFFECTS]
    queens = [str(v["card"]) for v in battle_views if v["kind"] == "queen_zone" and not v.get("cancelled")]
    winners = list(end["winners"])
    rows = []
    for s, label in enumerate(labels):
        field = tuple(str(c) for c in reveal["fields"][s]) if reveal is not None else ()
        shown: Cell = Cards(field, " ".join(barrell_card(c) for c in field)) if field else "no cards"
        mark = " ★" if s in winners else ""
        rows.append(Row(s, (label, shown, f"{end['scores'][s]}{mark}", str(end["wins"][s])), won=s in winners))
    if not winners:
        verdict = "a drawn battle: nobody wins it"
    else:
        verdict = " and ".join(labels[s] for s in winners) + (" wins it" if len(winners) == 1 else " each win it")
    battle = next((v["battle"] for v in reversed(views[: index + 1]) if v["kind"] == "battle"), "")
    notes = (f"Queen Zone: {' '.join(barrell_card(c) for c in queens)}",) if queens else ()
    return Summary(
        kind="battle_result",
        title=f"Battle {battle} is over · {verdict}",
        columns=("Seat", "Field revealed", "Battle score", "Battles won"),
        numeric=frozenset({2, 3}),
        rows=tuple(rows),
        lines=tuple(lines),
        notes=notes,
    )


# ---------------------------------------------------------------------- game ends read from the final position
def final_summary(
    game: Game[Any], observation: Mapping[str, Any], labels: Sequence[str], seat: int | None = None
) -> Summary | None:
    """A game's closing summary drawn from its final observation (public at the end), for games whose
    last round or battle summary does not already say it all; None for the others."""
    if game.name != "nutty":
        return None
    return nutty_final(observation, labels, seat)


def _acorns(pile: Mapping[str, int] | None) -> str:
    if not pile:
        return ""
    return (f"{pile['brown']}b" if pile["brown"] else "") + (f"{pile['golden']}g" if pile["golden"] else "")


def solo_verdict(points: int, won: bool) -> str:
    """How a solo game of Nutty Squirrels ended: ``Won with 21 points`` or ``18 points: 2 short of 20``."""
    if won:
        return f"Won with {points} points"
    return f"{points} point{'' if points == 1 else 's'}: {SOLO_TARGET - points} short of {SOLO_TARGET}"


def nutty_final(observation: Mapping[str, Any], labels: Sequence[str], seat: int | None) -> Summary:
    """Each squirrel's burrow and points (what wins, NS-14), the acorns left unburied (tie-breaks) and the
    powers held at the end; a solo game says how far the points were from 20."""
    winners = set(observation.get("winners") or [])
    rows = []
    for s, board in enumerate(observation["boards"]):
        carried = [
            f"{place} {text}"
            for place, text in (
                ("cheeks", _acorns(board["cheeks"])),
                ("pack", str(board["backpack"] or "")),
                ("nest", _acorns(board["nest"])),
                ("sticky", _acorns(board["sticky"])),
            )
            if text
        ]
        cells = (
            labels[s],
            _acorns(board["burrow"]) or "—",
            str(board["points"]),
            ", ".join(carried) or "—",
            str(len(board["powers"])),
        )
        rows.append(Row(s, cells, won=s in winners))
    solo = len(labels) == 1
    title = solo_verdict(int(observation["scores"][0]), 0 in winners) if solo else "The burrows at the end"
    return Summary(
        kind="game_over",
        title=title,
        columns=("Seat", "Burrow", "Points", "Unburied", "Powers held"),
        numeric=frozenset({2, 4}),
        rows=tuple(rows),
    )


Builder = Callable[[Game[Any], Sequence[EventView], int, Sequence[str], int | None], Summary]
_BUILDERS: Mapping[str, Mapping[str, Builder]] = {
    "squarrels": {"round_end": squarrels_round},
    "barrell": {"battle_result": barrell_battle},
}
