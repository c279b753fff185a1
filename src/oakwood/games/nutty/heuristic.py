"""A heuristic Nutty Squirrels bot for multiplayer and solo: gathers efficiently, banks before risk, uses powers.

It decides from the observation and the legal actions only (never the true state). The rules of thumb, in
order: settle Fool's Gold, win when a bury wins, claim powers, take the best acorn underfoot, bank on the
trunk (convert, bury, stash), steal and scare when it pays, then walk to the best-looking card — flipping
face-down cards only when little is being carried.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from oakwood.engine import Rng
from oakwood.engine.agent import PlayerView

from .actions import Act

Obs = dict[str, Any]


def _where(text: str) -> tuple[int, int]:
    """(limb, pos) of ``L3c2``; (-1, -1) for the trunk."""
    if text == "trunk":
        return -1, -1
    limb, pos = text[1:].split("c")
    return int(limb) - 1, int(pos) - 1


def _carried_value(board: Obs) -> int:
    value: int = board["cheeks"]["brown"] + 5 * board["cheeks"]["golden"]
    return value + {"brown": 1, "golden": 5, None: 0}[board["backpack"]]


def _carried_count(board: Obs) -> int:
    count: int = board["cheeks"]["brown"] + board["cheeks"]["golden"]
    return count + (1 if board["backpack"] else 0)


def _card_value(card: Obs) -> float:
    """What a card looks worth: its acorns, or the average leaf if face down."""
    value = float(card["brown"] + 5 * card["golden"])
    return value + 1.1 if card["card"] is None else value


def _paths(obs: Obs, board: Obs, solo: bool) -> dict[tuple[int, int], tuple[float, tuple[int, int]]]:
    """Cheapest cost to every card from the squirrel's position, and the first step of that path.

    Multiplayer costs are AP (a revealed Broken Branch costs 2, 1 with Swinging Squirrel); solo costs are
    points (outward onto a revealed card) plus a small step cost, Broken Branches only with Swinging Squirrel.
    """
    tree = obs["tree"]
    powers = board["powers"]
    flying, swinging = "FL" in powers, "SW" in powers
    start = _where(board["at"])
    # The frontier is sorted by cost on every pass (stable, so ties keep their order); costs and first steps
    # sit in two dicts so the sort's key is a C lookup, not a Python function (the heuristic's hottest loop).
    cost_to = {start: 0.0}
    first_step = {start: start}
    by_cost = cost_to.__getitem__
    frontier = [start]
    while frontier:
        frontier.sort(key=by_cost)
        node = frontier.pop(0)
        here = cost_to[node]
        first = first_step[node]
        limb, pos = node
        if limb < 0:
            steps = [((lb, 0), True) for lb in range(6) if tree[lb]]
        else:
            steps = [((-1, -1) if pos == 0 else (limb, pos - 1), False)]
            if pos + 1 < len(tree[limb]):
                steps.append(((limb, pos + 1), True))
            if flying:
                for side in ((limb + 5) % 6, (limb + 1) % 6):
                    if pos < len(tree[side]):
                        steps.append(((side, pos), False))
        for nxt, outward in steps:
            cost = 1.0
            if nxt[0] >= 0:
                card = tree[nxt[0]][nxt[1]]["card"]
                if card == "BB":
                    if (solo and not swinging) or (limb >= 0 and nxt[0] != limb):  # lateral onto a Broken Branch
                        continue
                    cost = 1.0 if swinging else 2.0
                if solo:
                    cost = 1.2 if outward and card is not None else 0.2
            elif solo:
                cost = 0.2
            total = here + cost
            if nxt not in cost_to or total < cost_to[nxt]:
                cost_to[nxt] = total
                first_step[nxt] = nxt if node == start else first
                frontier.append(nxt)
    return {place: (cost, first_step[place]) for place, cost in cost_to.items()}


class NuttyHeuristic:
    """Plays like a sensible person; works for any number of players including solo."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self.idle = 0  # solo: decisions taken on the trunk without progress

    def act(self, view: PlayerView) -> Hashable:
        """Choose an action from the view."""
        legal: Sequence[Hashable] = view.legal_actions
        texts: dict[str, Any] = {str(a): a for a in legal}
        obs = view.observation
        choice = self._solo(obs, texts) if obs.get("mode") == "solo" else self._multi(obs, view.seat, texts)
        action: Hashable = texts[choice] if choice in texts else legal[0]
        return action

    # ------------------------------------------------------------------ shared pieces
    @staticmethod
    def _first(texts: dict[str, Act], *options: str) -> str | None:
        for option in options:
            if option in texts:
                return option
        return None

    def _gather(self, texts: dict[str, Act], board: Obs, card: Obs) -> str | None:
        """Golden first; with full pockets, trade a carried brown for a golden lying here."""
        pick = self._first(texts, "gather golden", "gather brown")
        if pick:
            return pick
        if card["golden"] and "drop brown" in texts and _carried_count(board) >= 2:
            return "drop brown"
        return None

    @staticmethod
    def _inward(limb: int, pos: int) -> str:
        return "move trunk" if pos == 0 else f"move L{limb + 1}c{pos}"

    def _best_limb(self, obs: Obs, texts: dict[str, Act], solo: bool) -> str | None:
        """From the trunk: the limb whose first cards look richest (and, in solo, cheapest)."""
        best, best_score = None, 0.0
        for limb, row in enumerate(obs["tree"]):
            move = f"move L{limb + 1}c1"
            if move not in texts or not row:
                continue
            score = 0.0
            for depth, card in enumerate(row[:3]):
                worth = _card_value(card) / (depth + 1)
                if card["card"] == "BB":
                    break
                if solo and card["card"] is not None:
                    worth -= 0.6  # a revealed card costs a point to step onto
                score += worth
            score += self.rng.random() * 0.1
            if score > best_score:
                best, best_score = move, score
        return best

    def _navigate(self, obs: Obs, board: Obs, texts: dict[str, Act], solo: bool, flips: bool) -> str | None:
        """One step toward the card that looks best for its distance (acorns, or a face-down card to flip)."""
        paths = _paths(obs, board, solo)
        best, best_score = None, 0.0
        for (limb, pos), (cost, first) in paths.items():
            if limb < 0 or (cost == 0.0 and first == (limb, pos)):
                continue
            card = obs["tree"][limb][pos]
            if card["card"] is None and not flips:
                continue
            if card["card"] in ("BB", "ST") and not (card["brown"] or card["golden"]):
                continue
            value = _card_value(card)
            if solo and card["card"] is None:
                value += 0.5  # the solo deck is richer (mostly leaves); landing face down is free: count the run
                row = obs["tree"][limb]
                run = 1
                while pos + run < len(row) and row[pos + run]["card"] is None and run < 3:
                    run += 1
                value *= run
            score = value / (1.0 + cost) if not solo else value - cost * 0.9
            score += self.rng.random() * 0.01
            if score > best_score:
                best, best_score = first, score
        if best is None:
            return None
        move = "move trunk" if best[0] < 0 else f"move L{best[0] + 1}c{best[1] + 1}"
        return move if move in texts else None

    # ------------------------------------------------------------------ multiplayer
    def _multi(self, obs: Obs, seat: int, texts: dict[str, Act]) -> str | None:
        if obs["phase"] == "fools":
            return self._first(texts, "exchange cheeks", "exchange backpack", "exchange nest", "exchange burrow")
        board = obs["boards"][seat]
        limb, pos = _where(board["at"])
        ap = obs["ap"]
        if "claim" in texts:
            return "claim"
        if "copy sugar" in texts and ap >= 1:
            return "copy sugar"  # one more AP this turn
        if "copy sticky" in texts and ap >= 1 and limb < 0:
            rich = any(b["nest"]["brown"] + b["nest"]["golden"] and b["at"] != "trunk" for b in obs["boards"])
            if rich:
                return "copy sticky"
        if limb >= 0:
            return self._on_limb(obs, seat, texts, board, limb, pos, ap)
        return self._on_trunk(obs, seat, texts, board, ap)

    def _on_trunk(self, obs: Obs, seat: int, texts: dict[str, Act], board: Obs, ap: int) -> str | None:
        if board["points"] + 5 >= 20 and "bury golden" in texts:
            return "bury golden"
        pick = self._first(texts, "convert", "bury golden", "bury brown")
        if pick:
            return pick
        for colour in ("golden", "brown"):
            if f"stash {colour}" in texts:
                return f"stash {colour}"
        steals = [t for t in texts if t.startswith("steal") and t.endswith("golden")]
        steals += [t for t in texts if t.startswith("steal") and t.endswith("brown")]
        if steals:
            return steals[0]
        owl = self._owl_target(obs, seat, texts)
        if owl:
            return owl
        if ap >= 1:
            move = self._navigate(obs, board, texts, solo=False, flips=True) or self._best_limb(obs, texts, False)
            if move:
                return move
        return "end"

    def _owl_target(self, obs: Obs, seat: int, texts: dict[str, Act]) -> str | None:
        """Scare the limb where rivals carry the most (at least 4 points' worth)."""
        best, best_value = None, 3
        for limb in range(6):
            text = f"owl L{limb + 1}"
            if text not in texts:
                continue
            here = f"L{limb + 1}c"
            boards = obs["boards"]
            value = sum(_carried_value(b) for s, b in enumerate(boards) if s != seat and b["at"].startswith(here))
            if value > best_value:
                best, best_value = text, value
        return best

    def _on_limb(
        self, obs: Obs, seat: int, texts: dict[str, Act], board: Obs, limb: int, pos: int, ap: int
    ) -> str | None:
        row = obs["tree"][limb]
        card = row[pos]
        pick = self._gather(texts, board, card)
        if pick:
            return pick
        steal = next((t for t in texts if t.startswith("steal") and not t.endswith(("brown", "golden"))), None)
        steal = steal or next((t for t in texts if t.startswith("steal")), None)
        if steal:
            return steal
        carried = _carried_value(board)
        room = "gather brown" in texts or _carried_count(board) < 2
        if room:
            lasso = next((t for t in texts if t.startswith("lasso") and t.endswith("golden")), None)
            lasso = lasso or next((t for t in texts if t.startswith("lasso")), None)
            if lasso and ap >= 2:
                return lasso
        spit = next((t for t in texts if t.startswith("spit") and t.endswith("golden")), None)
        spit = spit or next((t for t in texts if t.startswith("spit")), None)
        if spit:
            return spit
        if card["card"] is None and "flip" in texts and carried <= 1:
            return "flip"  # little to lose: take the risk of a Broken Branch
        if not room or carried >= 5 or (carried and ap <= pos + 1):
            inward = self._inward(limb, pos)
            return inward if inward in texts else self._first(texts, "end")
        if carried <= 1:
            move = self._navigate(obs, board, texts, solo=False, flips=True)
            if move:
                return move
        if carried:
            inward = self._inward(limb, pos)
            if inward in texts:
                return inward
        return self._first(texts, "end", self._inward(limb, pos))

    # ------------------------------------------------------------------ solo
    def _solo(self, obs: Obs, texts: dict[str, Act]) -> str | None:
        if obs["phase"] == "fools":  # the golden that costs least to lose: carried before banked
            return self._first(texts, "exchange cheeks", "exchange backpack", "exchange nest", "exchange burrow")
        if obs["phase"] == "bribe":
            return "bribe"  # the usual payment (NS-17i): carried brown first, the points banked in the nest last
        board = obs["boards"][0]
        limb, pos = _where(board["at"])
        wealth = obs["wealth"]
        self.idle += 1
        if self.idle > 80:  # wandering without gain: stop
            return "end game"
        if limb < 0:
            for colour in ("golden", "brown"):
                if f"stash {colour}" in texts:
                    self.idle = 0
                    return f"stash {colour}"
            if "buy backpack" in texts and wealth >= 9:
                return "buy backpack"
            move = self._navigate(obs, board, texts, solo=True, flips=True)
            if move:
                return move
            blocked = any(
                card["card"] is None and any(c["card"] == "BB" for c in row[:pos])
                for row in obs["tree"]
                for pos, card in enumerate(row)
            )
            if blocked and "buy swinging" in texts:
                return "buy swinging"  # the only way past Broken Branches in solo
            return "end game"
        card = obs["tree"][limb][pos]
        pick = self._gather(texts, board, card)
        if pick:
            self.idle = 0
            return pick
        room = _carried_count(board) < 2 + (1 if "BP" in board["powers"] else 0)
        carried = _carried_value(board)
        if "flip" in texts and (carried <= 1 or wealth - carried >= 3):
            return "flip"  # shifted onto a face-down card: flipping it is free
        if room:
            safe = carried <= 1 or wealth - carried >= 3  # the Owl's bribe is banked
            move = self._navigate(obs, board, texts, solo=True, flips=safe)
            if move:
                return move
        inward = self._inward(limb, pos)
        return inward if inward in texts else "end game"
