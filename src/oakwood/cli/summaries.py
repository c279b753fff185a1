"""Summaries a person can follow at the end of a S'Quarrels round, a Barrell battle and every game.

Each summary is built from what the seat may see only: the event views of ``state.events_seen_by(seat, 0)``
(every event of the game, in the form that seat sees it) up to the event that ended the round or battle.
Nothing is read from the state itself, so a summary can show no more than the log already told.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oakwood.engine import Game

from .styles import styled

EventView = Mapping[str, Any]
#: What the running score counts, by game (the final table's column heading).
SCORE_NAMES: Mapping[str, str] = {"barrell": "Battles won", "squarrels": "Total", "nutty": "Points"}
#: S'Quarrels: the Golden Acorn held at Winter is worth this much, the Rotten Acorn costs as much (SQ-16).
SQUARRELS_BONUS = 5


def score_name(game: str) -> str:
    """The final table's name for the score of ``game`` (``Score`` for a game this module does not know)."""
    return SCORE_NAMES.get(game, "Score")


def ending_kinds(game: str) -> frozenset[str]:
    """The event kinds after which ``game`` pauses on a summary."""
    return frozenset(_BUILDERS.get(game, {}))


def summary(
    game: Game[Any], views: Sequence[EventView], index: int, labels: Sequence[str], *, seat: int | None
) -> RenderableType | None:
    """The summary of the round or battle that ``views[index]`` ended, or None if that event ends nothing."""
    builder = _BUILDERS.get(game.name, {}).get(str(views[index]["kind"]))
    if builder is None:
        return None
    return builder(game, views, index, labels, seat)


def _since(views: Sequence[EventView], index: int, start_kinds: Sequence[str]) -> list[EventView]:
    """The views after the last one of ``start_kinds`` before ``index``, up to ``index`` itself."""
    start = 0
    for i in range(index - 1, -1, -1):
        if views[i]["kind"] in start_kinds:
            start = i + 1
            break
    return list(views[start : index + 1])


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


# ---------------------------------------------------------------------- S'Quarrels
def squarrels_round(
    game: Game[Any], views: Sequence[EventView], index: int, labels: Sequence[str], seat: int | None
) -> RenderableType:
    """Each player's stored sets and their points, the Golden or Rotten bonus, the round score and the
    match total. The bonus is what the public round score leaves once the sets are counted (SQ-16): +5 the
    Golden held, −5 the Rotten, 0 neither (or both)."""
    end = views[index]
    per_card = getattr(game.options, "set_scoring", "") == "per_card"
    round_views = _since(views, index, ("round_start",))
    sets: list[list[str]] = [[] for _ in labels]
    points = [0] * len(labels)
    for view in round_views:
        if view["kind"] == "store":
            value = int(view["value"])
            sets[view["seat"]].append(f"[{value}{value}G]" if view["with_golden"] else f"[{value}{value}{value}]")
            points[view["seat"]] += value * 3 if per_card else value
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for heading, justify in (
        ("Seat", "left"),
        ("Sets stored", "left"),
        ("Sets", "right"),
        ("Golden / Rotten", "left"),
        ("Round", "right"),
        ("Total", "right"),
    ):
        table.add_column(heading, justify=justify)  # type: ignore[arg-type]
    for s, label in enumerate(labels):
        score = int(end["scores"][s])
        bonus = score - points[s]
        if bonus >= SQUARRELS_BONUS:
            held = f"Golden {_signed(bonus)}"
        elif bonus <= -SQUARRELS_BONUS:
            held = f"Rotten {_signed(bonus)}"
        else:
            held = "—"
        table.add_row(
            Text(label, style="bold cyan" if s == seat else ""),
            styled(" ".join(sets[s]) or "—", "squarrels"),
            str(points[s]),
            styled(held, "squarrels"),
            styled(_signed(score), "squarrels"),
            Text(str(end["totals"][s]), style="bold"),
        )
    leaders = _leaders(end["totals"], labels)
    note = Text("“—” under Golden / Rotten: neither held at Winter, or both (they cancel).", style="dim")
    title = Text(f"Winter ends round {end['round']} · leading: {leaders}", style="bold")
    return Panel(Group(table, note), title=title, title_align="left", box=box.ROUNDED)


# ---------------------------------------------------------------------- Barrell
#: A battle summary lists at most this many effects, so that it fits an 80x24 screen with four players.
MAX_EFFECT_LINES = 8
#: Barrell events that tell what the face cards, the Jokers and the hearts did at the reveal.
_BARRELL_EFFECTS = ("swap", "rotate", "joker", "gift", "queen_zone", "destroy", "return", "take", "provisional_scores")


def barrell_battle(
    game: Game[Any], views: Sequence[EventView], index: int, labels: Sequence[str], seat: int | None
) -> RenderableType:
    """The fields as revealed, what the Kings, Queens, Jacks and Jokers did, the hearts given, the battle
    scores, who won it and the battles won so far."""
    describe_event = game.describe_event
    end = views[index]
    battle_views = _since(views, index, ("battle",))
    reveal = next((v for v in battle_views if v["kind"] == "reveal"), None)
    effects = [describe_event(v) for v in battle_views if v["kind"] in _BARRELL_EFFECTS]
    ended_early = next((v for v in battle_views if v["kind"] == "battle_ends"), None)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Seat")
    table.add_column("Field revealed")
    table.add_column("Battle score", justify="right")
    table.add_column("Battles won", justify="right")
    winners = list(end["winners"])
    for s, label in enumerate(labels):
        field = reveal["fields"][s] if reveal is not None else []
        shown = " ".join(_card(c) for c in field) if field else "no cards"
        mark = " ★" if s in winners else ""
        table.add_row(
            Text(label, style="bold cyan" if s == seat else ""),
            styled(shown, "barrell"),
            Text(f"{end['scores'][s]}{mark}", style="bold green")
            if s in winners
            else styled(str(end["scores"][s]), "barrell"),
            str(end["wins"][s]),
        )
    parts: list[RenderableType] = [table]
    if ended_early is not None:
        parts.append(Text(describe_event(ended_early), style="yellow"))
    if effects:
        parts.append(Text("At the reveal:", style="bold"))
        listed = effects[:MAX_EFFECT_LINES]
        parts += [Text("  • ") + styled(line, "barrell") for line in listed]
        if len(effects) > len(listed):  # a summary must fit one screen: the log has every line
            parts.append(Text(f"  … {len(effects) - len(listed)} more ('log' shows them all)", style="dim"))
    if not winners:
        verdict = "a drawn battle: nobody wins it"
    else:
        verdict = " and ".join(labels[s] for s in winners) + (" wins it" if len(winners) == 1 else " each win it")
    battle = next((v["battle"] for v in reversed(views[: index + 1]) if v["kind"] == "battle"), "")
    title = Text(f"Battle {battle} is over · {verdict}", style="bold")
    return Panel(Group(*parts), title=title, title_align="left", box=box.ROUNDED)


_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_JOKER_NAMES = {"RJ": "Red Joker", "BJ": "Black Joker"}


def _card(name: str) -> str:
    """A Barrell card as the board shows it: ``9H`` → ``9♥``, ``RJ`` → ``Red Joker``."""
    if name in _JOKER_NAMES:
        return _JOKER_NAMES[name]
    return name[:-1] + _SUIT_SYMBOLS.get(name[-1:], name[-1:])


def _leaders(totals: Sequence[int], labels: Sequence[str]) -> str:
    best = max(totals)
    names = [labels[s].split(" ")[0] for s, t in enumerate(totals) if t == best]
    return f"{' and '.join(names)} with {best}"


# ---------------------------------------------------------------------- game ends read from the final position
def final_summary(
    game: Game[Any], observation: Mapping[str, Any], labels: Sequence[str], seat: int | None
) -> RenderableType | None:
    """A game's closing summary drawn from its final observation (public at the end), for games whose
    last round or battle summary does not already say it all; None for the others."""
    if game.name != "nutty":
        return None
    return nutty_final(observation, labels, seat)


def _acorns(pile: Mapping[str, int] | None) -> str:
    if not pile:
        return ""
    return (f"{pile['brown']}b" if pile["brown"] else "") + (f"{pile['golden']}g" if pile["golden"] else "")


def nutty_final(observation: Mapping[str, Any], labels: Sequence[str], seat: int | None) -> RenderableType:
    """Each squirrel's burrow and points (what wins, NS-14), the golden buried (tie-break 1) and the acorns
    left unburied (tie-break 2), and the powers held at the end."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for heading, justify in (
        ("Seat", "left"),
        ("Burrow", "left"),
        ("Points", "right"),
        ("Unburied", "left"),
        ("Powers held", "right"),
    ):
        table.add_column(heading, justify=justify)  # type: ignore[arg-type]
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
        table.add_row(
            Text(labels[s], style="bold cyan" if s == seat else ""),
            styled(_acorns(board["burrow"]) or "—", "nutty"),
            Text(str(board["points"]), style="bold"),
            styled(", ".join(carried) or "—", "nutty"),
            str(len(board["powers"])),
        )
    return Panel(table, title=Text("The burrows at the end", style="bold"), title_align="left", box=box.ROUNDED)


Builder = Callable[[Game[Any], Sequence[EventView], int, Sequence[str], int | None], RenderableType]
_BUILDERS: Mapping[str, Mapping[str, Builder]] = {
    "squarrels": {"round_end": squarrels_round},
    "barrell": {"battle_result": barrell_battle},
}
