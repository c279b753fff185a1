"""A stronger rule-based Nutty Squirrels bot ("strategist"), for multiplayer and solo, found by simulation.

It decides from the observation and the legal actions only (never the true state), like ``NuttyHeuristic``,
with the standard library only, deterministically for a seed. Every figure below was measured against
``NuttyHeuristic`` on duplicate deals (``benchmarks/duel.py``: each deal played once with the strategist at
every seat), tuned on one seed and confirmed on another.

Multiplayer, the rules of thumb:

- **Bank brown in the nest, not the burrow.** On the trunk everything carried is stashed; five nest browns
  are converted into a golden (1 AP) and goldens are buried (1 AP for 5 points). A brown is buried on its own
  (1 AP for 1 point) only when that wins now, on the last turn, or with no better use for the AP. Alone, on
  top of the heuristic: 0.595 ± 0.03 win share at two players (equal 0.5).
- **Win as soon as the AP allow it.** Before anything else on the trunk: if carried and nested acorns,
  banked greedily (golden first, converting when it saves AP), reach 20 this turn, bank them.
- **Walk by points per AP, home included.** Every card is priced as what it adds (acorns that fit the
  pockets, swapping a carried brown for a golden; a face-down card's expected leaf and power from the cards
  nobody has seen yet, less its risks; a claimable power) over what it costs: the steps there, the flip, the
  walk home it adds and the AP to bank what it brings. A loaded squirrel goes home once nothing pays
  ``GO_HOME_RATE`` points per AP. Lasso pulls and Spittoon spits are priced the same way. Together with the
  banking rule: 0.69 ± 0.03 at two players, 0.47 ± 0.02 at four (equal 0.25), on the tuning deals.
- **Flip when it pays,** by the same price (the risk of a Broken Branch counted in lost AP); on a face-down
  card the flip is decided before gathering, and carried acorns are put down first, so that a Fool's Gold
  or a Wind Gust cannot take them (worth little: turning it off measured −0.01 ± 0.03; kept as harmless).
- **Never waste AP:** with nothing worth walking to, bury a brown rather than end the turn with AP left.
- **The end:** once the tree is about to run out (or the end is triggered), nest browns are buried; on the
  last turn the squirrel goes home and buries all it can.
- Powers: claim every power (a free slot); copy Sugar Rush, or Sticky Fingers against loaded nests; steal
  golden first; scare a limb where rivals carry 4 points or more (the heuristic's rules).

Solo (no AP; acorns are money), the rules of thumb:

- **Explore with empty cheeks, gather on the way back.** Stepping onto a face-down card is free, so while
  the next card out is face down (and the nest can pay the Owl) the squirrel walks on and leaves the acorns
  it passes for the walk home, which is free. Without this rule: −0.45 points, −11 % wins.
- **Respect the Owl.** An unpaid Owl ends the game, so a flip with less than 3 points in hand is priced as
  costing ``owl_ruin`` points when something else can be done instead (collect lying acorns first);
  against stopping, a flip is still better. 15 → 60: +1.1 points, +8 % wins. And while the carried acorns
  are what would pay the Owl, a fall is priced ``uninsured_fall`` times what it drops (so the squirrel banks
  before flipping on): +1.1 ± 0.2 points, +9 % wins.
- **Buy the Lasso, not the Backpack.** With the Lasso every acorn lying further out is pulled onto the
  squirrel's card for free, so the walk home drags a limb's acorns inward and later trips are short. Buying
  the Lasso at 6 points instead of the Backpack: +0.3 points, +5 % wins; a Backpack on top of it measured
  worse (−0.3 points at 10). Swinging Squirrel is bought only when face-down cards lie behind Broken
  Branches and nothing else is left. Flying Squirrel is never bought (it let the squirrel wander sideways
  for free: −3.9 points).
- **Price every trip in points:** acorns that fit, less the outward steps onto face-up cards (and Sticky
  Fingers' toll); a face-down card's expected leaf less the risks of what is carried. Stop when no trip is
  within ``min_net`` (acorns) or ``min_flip_net`` (a flip) of paying for itself.
- **Tuned solo figures** (``SOLO``, an Optuna study of 130 trials of 4,000 deals, ``benchmarks/tune_strategist.py
  nutty tune``): go on while a trip costs up to a point more than it promises (it also leaves the squirrel out
  on the limb, nearer the next card), always walk on over face-down cards with empty cheeks, and price a fall
  with acorns in the cheeks about five times what it drops (sixty times while they would pay the Owl), so the
  squirrel banks before it flips on. On fresh deals: +3.26 ± 0.22 points over the heuristic (seed 2, 4,000
  deals; +2.46 before), +3.06 ± 0.22 (seed 3; +2.31 before).

Final figures on fresh deals (not the tuning ones), win share against ``NuttyHeuristic`` at the other seats
with the 95 % half-width: 2 players 0.682 ± 0.015 (2000 deals, equal 0.5), 3 players 0.535 ± 0.020 (800,
equal 0.333), 4 players 0.459 ± 0.016 (1000, equal 0.25), 6 players 0.317 ± 0.023 (300, equal 0.167).
Solo over 2000 seeds: +2.23 ± 0.32 points a game (16.50 against 14.28), wins 59.6 % against 41.8 %; after
trips were ranked by moves instead of a random tie-break (``outranks``), over 4000 other deals: +2.46 ± 0.22
(16.42 against 13.96), wins 58.6 % against 38.6 %, where the random tie-break scored +2.50 on the same deals;
with the tuned solo figures, +3.26 ± 0.22 on those deals (17.22 against 13.96).
A decision costs about 47 µs in a four-player game (the heuristic's: 29 µs), 28 µs in solo (the same).

Termination: multiplayer turns always end (every move costs AP, and the free actions — gathering, dropping
before a flip, stashing — cannot cycle: a drop happens only for a flip this same card and turn will make);
solo games end by ``end game`` once nothing is worth its price or after ``SOLO_IDLE_LIMIT`` decisions
without progress.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Sequence
from functools import cache
from typing import Any, Final

from oakwood.engine import Rng
from oakwood.engine.agent import PlayerView
from oakwood.engine.figures import Figures

from .cards import LEAF_ACORNS, SOLO_KEEP, SOLO_KEEP_WITH_EVENTS, composition

Obs = dict[str, Any]
Place = tuple[int, int]  # (limb, pos) from 0; (-1, -1) is the trunk
TRUNK: Final[Place] = (-1, -1)
WIN_POINTS: Final = 20

# ---------------------------------------------------------------- multiplayer tuning (measured, see above)
#: Points per AP below which a squirrel carrying acorns heads home (0.3 and 0.6 measured no better).
GO_HOME_RATE: Final = 0.45
#: AP it takes to bank one brown (a fifth of a convert and of a golden's bury) and one golden (its bury).
BANK_AP_BROWN: Final = 0.4
BANK_AP_GOLDEN: Final = 1.0
#: What one AP is worth in points, for AP lost (a fall ends the turn, Sappy Feet takes one).
AP_WORTH: Final = 0.35
#: Face-down cards left on the tree when nest browns start being buried (0 to 8 measured alike).
ENDGAME_FACE_DOWN: Final = 4
#: What a power is worth to its holder, in points (half or double these measured worse).
POWER_WORTH: Final[dict[str, float]] = {
    "SR": 5.0, "BP": 4.0, "SP": 4.0, "ST": 3.0, "OW": 2.0, "LA": 1.5, "FL": 1.0, "DO": 1.0, "SW": 0.7,
}  # fmt: skip

#: Decisions without progress after which the solo game is ended.
SOLO_IDLE_LIMIT: Final = 60

EXCHANGES: Final = ("exchange cheeks", "exchange backpack", "exchange nest", "exchange burrow")

#: The solo figures (class attributes of ``NuttyStrategist``, which say what each is), tuned by table size in
#: ``TUNED`` and given by name for a study (``benchmarks/tune_strategist.py nutty tune --players 1``).
FIGURES = (
    "later_share",
    "owl_ruin",
    "uninsured_fall",
    "fall_weight",
    "explore_margin",
    "lasso_at",
    "swinging_at",
    "min_net",
    "min_flip_net",
)
#: Solo: tuned by 130 trials of 4,000 deals (seed 1; ``benchmarks/tune_strategist.py nutty tune``). The squirrel
#: walks on over face-down cards whenever it may (``explore_margin`` −3), goes on flipping and gathering while a
#: trip costs up to a point more than it promises (a trip also puts the squirrel out on the limb, nearer the next
#: card), and prices a fall with the carried acorns five times over (twelve times again when they would pay the
#: Owl), so it banks before it flips on.
SOLO: dict[str, float] = {
    "later_share": 0.25,
    "owl_ruin": 23.21,
    "uninsured_fall": 12.38,
    "fall_weight": 4.7,
    "explore_margin": -3.0,
    "lasso_at": 6,
    "swinging_at": 3,
    "min_net": -0.8,
    "min_flip_net": -1.0,
}
#: The figures by table size (multiplayer plays the class's: the solo figures do not enter its rules).
TUNED: dict[int, dict[str, float]] = {1: SOLO}


# ================================================================ reading the observation
def where(text: str) -> Place:
    """(limb, pos) of ``L3c2``; (-1, -1) for the trunk."""
    if text == "trunk":
        return TRUNK
    limb, pos = text[1:].split("c")
    return int(limb) - 1, int(pos) - 1


def move_text(place: Place) -> str:
    """The action text of a move onto ``place``."""
    return "move trunk" if place[0] < 0 else f"move L{place[0] + 1}c{place[1] + 1}"


def inward(place: Place) -> Place:
    """The next place toward the trunk."""
    return TRUNK if place[1] == 0 else (place[0], place[1] - 1)


def carried(board: Obs) -> tuple[int, int]:
    """Brown and golden acorns carried (cheeks and Backpack)."""
    pack = board["backpack"]
    return board["cheeks"]["brown"] + (pack == "brown"), board["cheeks"]["golden"] + (pack == "golden")


def capacity(board: Obs) -> int:
    """Acorns the squirrel can carry: two cheeks, a third with the Backpack."""
    return 3 if "BP" in board["powers"] else 2


def unseen(obs: Obs, deck: dict[str, int]) -> dict[str, int]:
    """The card kinds nobody has seen yet: ``deck`` less every face-up card on the tree, out of play, held as
    a power or waiting as Sappy Feet (``deck`` is the game's composition, see ``decks``)."""
    counts = dict(deck)
    for row in obs["tree"]:
        for card in row:
            kind = card["card"]
            if kind in counts:
                counts[kind] -= 1
    for kind in obs["out_of_play"]["cards"]:
        if kind in counts:
            counts[kind] -= 1
    for board in obs["boards"]:
        for kind in board["powers"]:
            if kind in counts:
                counts[kind] -= 1
        if "SF" in counts:
            counts["SF"] -= board["sappy_next"] + board["sappy_now"]
    return {kind: max(0, n) for kind, n in counts.items()}


@cache
def decks(composition_option: str, solo_keeps_events: bool) -> tuple[dict[str, int], dict[str, int]]:
    """The cards of a deck composition option, {kind: count}: all of them (multiplayer) and those the solo
    game keeps (NS-17: the leaves, the Owl, Sticky Fingers and the Broken Branches, and the other events with
    ``solo_keep_events``). The game's options are public, so the bot knows the deck it plays with."""
    cards = composition(composition_option)
    keep = SOLO_KEEP_WITH_EVENTS if solo_keeps_events else SOLO_KEEP
    return cards, {kind: n for kind, n in cards.items() if kind in keep}


def first_of(texts: dict[str, Any], *options: str) -> str | None:
    """The first of ``options`` that is legal."""
    return next((option for option in options if option in texts), None)


def gather_here(texts: dict[str, Any], board: Obs, card: Obs) -> str | None:
    """Golden first; with full pockets, put a carried brown down to take a golden lying here."""
    pick = first_of(texts, "gather golden", "gather brown")
    if pick:
        return pick
    brown, golden = carried(board)
    if card["golden"] and "drop brown" in texts and brown + golden >= 2:
        return "drop brown"
    return None


# ================================================================ multiplayer paths
def enter_cost(card: Obs, swinging: bool) -> float:
    """AP to step onto a card: 2 onto a revealed Broken Branch (1 with Swinging Squirrel), else 1."""
    return (1.0 if swinging else 2.0) if card["card"] == "BB" else 1.0


def home_costs(tree: list[list[Obs]], swinging: bool) -> list[list[float]]:
    """AP from every card back to the trunk, walking inward (by limb, then card)."""
    out: list[list[float]] = []
    for row in tree:
        costs: list[float] = []
        cost = 1.0
        for card in row:
            costs.append(cost)
            cost += enter_cost(card, swinging)
        out.append(costs)
    return out


def ap_paths(
    tree: list[list[Obs]], home: list[list[float]], start: Place, flying: bool, swinging: bool
) -> dict[Place, tuple[float, Place]]:
    """Cheapest AP to every card from ``start`` and the first step there.

    Without Flying Squirrel the tree is a star of paths, so the costs are sums along a limb (the common case,
    and fast; ``home`` is ``home_costs``); with it, a Dijkstra search over the lateral moves too (never
    sideways onto a Broken Branch).
    """
    if flying:
        return _dijkstra(tree, start, swinging)
    out: dict[Place, tuple[float, Place]] = {}
    limb, pos = start
    if limb >= 0:  # along the own limb, both ways
        row = tree[limb]
        cost = 0.0
        for q in range(pos + 1, len(row)):
            cost += enter_cost(row[q], swinging)
            out[(limb, q)] = (cost, (limb, pos + 1))
        cost = 0.0
        for q in range(pos - 1, -1, -1):
            cost += enter_cost(row[q], swinging)
            out[(limb, q)] = (cost, (limb, pos - 1))
    to_trunk = home[limb][pos] if limb >= 0 else 0.0
    first_home = TRUNK if limb < 0 else inward(start)
    for other, row in enumerate(tree):
        if other == limb:
            continue
        cost = to_trunk
        for q, card in enumerate(row):
            cost += enter_cost(card, swinging)
            out[(other, q)] = (cost, (other, 0) if limb < 0 else first_home)
    return out


def _dijkstra(tree: list[list[Obs]], start: Place, swinging: bool) -> dict[Place, tuple[float, Place]]:
    """``ap_paths`` with Flying Squirrel: lateral moves to the same card number next door. Steps cost 1 or 2
    AP, so the search pops from buckets of equal cost instead of a heap."""
    best: dict[Place, tuple[float, Place]] = {start: (0.0, start)}
    buckets: list[list[Place]] = [[start]]
    cost = 0
    while cost < len(buckets):
        for node in buckets[cost]:
            if best[node][0] < cost:
                continue  # reached more cheaply since it was queued
            first = best[node][1]
            limb, pos = node
            if limb < 0:
                steps = [(lb, 0) for lb in range(6) if tree[lb]]
            else:
                steps = [inward(node)]
                if pos + 1 < len(tree[limb]):
                    steps.append((limb, pos + 1))
                for side in ((limb + 5) % 6, (limb + 1) % 6):
                    if pos < len(tree[side]) and tree[side][pos]["card"] != "BB":
                        steps.append((side, pos))
            for nxt in steps:
                total = cost + (1 if nxt[0] < 0 or tree[nxt[0]][nxt[1]]["card"] != "BB" else (1 if swinging else 2))
                if nxt not in best or total < best[nxt][0]:
                    best[nxt] = (float(total), nxt if node == start else first)
                    while len(buckets) <= total:
                        buckets.append([])
                    buckets[total].append(nxt)
        cost += 1
    del best[start]
    best.pop(TRUNK, None)
    return best


# ================================================================ solo paths
def outranks(net: float, moves: int, rival: tuple[float, int, Place] | None) -> bool:
    """Whether a trip worth ``net`` points in ``moves`` moves beats ``rival`` (net, moves, first step): more
    points, or as many in fewer moves. A step along the chosen trip's way makes that trip rank strictly higher
    from the next place (as many points or more, one move fewer), and no other trip gains more, so the walk
    never turns back; a random tie-break could turn the squirrel toward an equal target behind it."""
    if rival is None or net > rival[0] + 1e-9:
        return True
    return net > rival[0] - 1e-9 and moves < rival[1]


def solo_paths(
    tree: list[list[Obs]], start: Place, flying: bool, swinging: bool, toll: float
) -> dict[Place, tuple[float, int, Place]]:
    """Cheapest points to every place by solo moves, the moves it takes and the first step: inward and
    sideways (Flying) are free, outward onto a face-up card costs 1 (plus ``toll`` onto Sticky Fingers), Broken
    Branches only with Swinging Squirrel. A face-down card ends a path: landing on it flips it.

    Of paths equal in points the one with fewest moves wins. Free sideways steps give many equal-priced ways
    round, and a first step taken on a roundabout one need not bring the squirrel any nearer: from the next
    place the cheapest way back led through where it came from, and it stepped to and fro for ever
    (``SOLO_IDLE_LIMIT`` ends that alone, but not for the fresh guides of a search). Counting moves makes every
    first step a step along a shortest path, so the remaining walk shrinks. Dijkstra on (points, moves)."""
    best: dict[Place, tuple[float, int, Place]] = {start: (0.0, 0, start)}
    todo: list[tuple[float, int, Place]] = [(0.0, 0, start)]
    while todo:
        here, moves, node = heapq.heappop(todo)
        if best[node][:2] != (here, moves):
            continue  # a stale entry: a cheaper way here was found after it was queued
        first = best[node][2]
        limb, pos = node
        if limb >= 0 and node != start and tree[limb][pos]["card"] is None:
            continue
        steps: list[tuple[Place, bool]]
        if limb < 0:
            steps = [((lb, 0), True) for lb in range(6) if tree[lb]]
        else:
            steps = [(inward(node), False)]
            if pos + 1 < len(tree[limb]):
                steps.append(((limb, pos + 1), True))
            if flying:
                steps += [((side, pos), False) for side in ((limb + 5) % 6, (limb + 1) % 6) if pos < len(tree[side])]
        for nxt, outward in steps:
            step = 0.0
            if nxt[0] >= 0:
                kind = tree[nxt[0]][nxt[1]]["card"]
                if kind == "BB" and (not swinging or (limb >= 0 and nxt[0] != limb)):
                    continue
                if kind is not None and outward:
                    step = 1.0
                if kind == "ST":
                    step += toll
            total = here + step
            known = best.get(nxt)
            if known is None or total < known[0] - 1e-9 or (total < known[0] + 1e-9 and moves + 1 < known[1]):
                best[nxt] = (total, moves + 1, nxt if node == start else first)
                heapq.heappush(todo, (total, moves + 1, nxt))
    return best


# ================================================================ the bot
class NuttyStrategist:
    """Banks brown in the nest, walks by points per AP, explores solo trees with empty cheeks."""

    name = "strategist"

    # ------------------------------------------------------------ solo figures (measured, see above)
    #: Worth of an acorn a flip reveals but the pockets cannot take now (it needs a later, paid trip).
    later_share = 0.35
    #: Points an unpaid Owl is priced at when a flip is weighed against another way to go on (30: −0.3 points).
    owl_ruin = 60.0
    #: A fall's loss is multiplied by this when the carried acorns are what would pay the Owl.
    uninsured_fall = 5.0
    #: A fall's loss (what is carried, dropped on a Broken Branch) is multiplied by this in every flip's risk.
    fall_weight = 1.0
    #: The least net points (gain less risk) a face-down card one step out must promise for the squirrel to walk
    #: on with the acorns here left for the walk back.
    explore_margin = 0.0
    #: Wealth at which the Lasso is bought (5 and 7 measured alike, 9: −0.4 points).
    lasso_at = 6
    #: Wealth at which Swinging Squirrel is bought, when only Broken Branches bar the face-down cards.
    swinging_at = 3
    #: The least net points a solo trip to lying acorns must promise.
    min_net = 0.05
    #: The least net points a solo trip to flip a face-down card must promise (below this the game is ended).
    min_flip_net = 0.05

    def __init__(self, seed: int = 0, **figures: float) -> None:
        """A strategist with ``seed``; ``figures`` replace its figures by name at every table size (for tuning; a
        name not in ``FIGURES`` is refused)."""
        self.rng = Rng(seed)
        #: (round, place) of a flip decided on, so that dropping acorns first never turns into gathering them.
        self.flip_intent: tuple[int, str] | None = None
        self.idle = 0  # solo: decisions since the last progress
        self.deck: dict[str, int] = {}  # the cards of the deck being played (``decks``), set by ``act``
        self._figures = Figures(self, "Nutty Squirrels strategist", FIGURES, TUNED, figures)

    def act(self, view: PlayerView) -> Hashable:
        """Choose an action from the view."""
        legal: Sequence[Hashable] = view.legal_actions
        texts: dict[str, Any] = {str(action): action for action in legal}
        obs = view.observation
        options = view.game.options
        self._figures.use(self, obs["players"])
        solo = obs.get("mode") == "solo"
        self.deck = decks(options.deck_composition, options.solo_keep_events)[1 if solo else 0]
        choice = self._solo(obs, texts) if solo else self._multi(obs, view.seat, texts)
        if choice not in texts:
            choice = "end" if "end" in texts else None
        action: Hashable = texts[choice] if choice is not None else legal[0]
        return action

    # ============================================================ multiplayer
    def _multi(self, obs: Obs, seat: int, texts: dict[str, Any]) -> str | None:
        """A multiplayer decision: Fool's Gold, free claims and copies, then the trunk or the limb."""
        if obs["phase"] == "fools":  # carried goldens are the ones most at risk anyway
            return first_of(texts, *EXCHANGES)
        board = obs["boards"][seat]
        at = where(board["at"])
        ap: int = obs["ap"]
        if "claim" in texts:  # a free slot: a power is worth having, and a rival cannot take it
            return "claim"
        if "copy sugar" in texts and ap >= 1:
            return "copy sugar"
        if "copy sticky" in texts and ap >= 1 and at[0] < 0 and self._rival_nests(obs):
            return "copy sticky"
        if at[0] < 0:
            return self._on_trunk(obs, seat, texts, board, ap)
        return self._on_limb(obs, texts, board, at, ap)

    @staticmethod
    def _rival_nests(obs: Obs) -> bool:
        """Whether a rival off the trunk has acorns in the nest (a copied Sticky Fingers could take one)."""
        return any(b["nest"]["brown"] + b["nest"]["golden"] and b["at"] != "trunk" for b in obs["boards"])

    @staticmethod
    def _last_turn(obs: Obs) -> bool:
        """The end is triggered and no turn of this seat follows this one."""
        return bool(obs["end_triggered"]) and obs["turns_left"] < obs["players"]

    @staticmethod
    def _banks_to_win(board: Obs, ap: int) -> bool:
        """Whether everything carried and nested, banked greedily with ``ap``, reaches 20 points."""
        brown, golden = carried(board)
        brown += board["nest"]["brown"]
        golden += board["nest"]["golden"]
        points: int = board["points"]
        while ap > 0 and points < WIN_POINTS:
            if golden:
                golden -= 1
                points += 5
            elif brown >= 5 and ap >= 2 and WIN_POINTS - points > ap - 1:  # converting saves AP
                brown -= 5
                golden += 1
            elif brown:
                brown -= 1
                points += 1
            else:
                break
            ap -= 1
        return points >= WIN_POINTS

    def _on_trunk(self, obs: Obs, seat: int, texts: dict[str, Any], board: Obs, ap: int) -> str | None:
        """Win if banking allows; stash, steal, convert, bury goldens; then walk out, else use the AP left."""
        if self._banks_to_win(board, ap) or self._last_turn(obs):
            pick = self._bank_everything(texts, board, ap)
            if pick:
                return pick
        pick = first_of(texts, "stash golden", "stash brown")  # free, and the nest converts
        if pick:
            return pick
        steals = [t for t in texts if t.startswith("steal") and t.endswith("golden")]
        steals += [t for t in texts if t.startswith("steal") and t.endswith("brown")]
        if steals:
            return steals[0]
        pick = first_of(texts, "convert", "bury golden")
        if pick:
            return pick
        owl = self._owl_target(obs, seat, texts)
        if owl:
            return owl
        if "bury brown" in texts and (obs["end_triggered"] or self._face_down(obs) <= ENDGAME_FACE_DOWN):
            return "bury brown"  # the tree is running out: nest browns will not make another golden
        if ap >= 1:
            pick = self._plan(obs, texts, board, ap)
            if pick:
                return pick
        return "bury brown" if "bury brown" in texts else "end"  # never leave AP unused

    @staticmethod
    def _bank_everything(texts: dict[str, Any], board: Obs, ap: int) -> str | None:
        """Bury the most points this turn: browns into the nest, goldens first, convert when it saves AP."""
        if "stash brown" in texts:
            return "stash brown"
        if "bury golden" in texts:
            return "bury golden"
        need = WIN_POINTS - board["points"]
        if "convert" in texts and ap >= 2 and need > ap - 1 and board["nest"]["brown"] >= 5:
            return "convert"
        return first_of(texts, "bury brown")

    @staticmethod
    def _face_down(obs: Obs) -> int:
        """Face-down cards left on the tree (the end triggers at none)."""
        return sum(1 for row in obs["tree"] for card in row if card["card"] is None)

    @staticmethod
    def _owl_target(obs: Obs, seat: int, texts: dict[str, Any]) -> str | None:
        """Scare the limb where rivals carry the most (at least 4 points' worth)."""
        best, best_value = None, 3
        for limb in range(6):
            text = f"owl L{limb + 1}"
            if text not in texts:
                continue
            value = 0
            for other, board in enumerate(obs["boards"]):
                if other != seat and board["at"].startswith(f"L{limb + 1}c"):
                    brown, golden = carried(board)
                    value += brown + 5 * golden
            if value > best_value:
                best, best_value = text, value
        return best

    def _on_limb(self, obs: Obs, texts: dict[str, Any], board: Obs, at: Place, ap: int) -> str | None:
        """Steal when standing with a rival; on the last turn gather and head home; else plan."""
        steal = next((t for t in texts if t.startswith("steal") and not t.endswith(("brown", "golden"))), None)
        steal = steal or next((t for t in texts if t.startswith("steal")), None)
        if steal:
            return steal
        if self._last_turn(obs):  # only what reaches the burrow this turn counts
            pick = gather_here(texts, board, obs["tree"][at[0]][at[1]])
            return pick or (move_text(inward(at)) if move_text(inward(at)) in texts else "end")
        return self._plan(obs, texts, board, ap)

    # ------------------------------------------------------------ the planner
    def _plan(self, obs: Obs, texts: dict[str, Any], board: Obs, ap: int) -> str | None:
        """The option with the most points per AP: flip here, lasso, spit, walk toward a card, or go home."""
        tree = obs["tree"]
        at = where(board["at"])
        brown, golden = carried(board)
        room = capacity(board) - brown - golden
        load = brown + 5 * golden
        powers = board["powers"]
        swinging = "SW" in powers
        counts = unseen(obs, self.deck)
        total = sum(counts.values()) or 1
        here = tree[at[0]][at[1]] if at[0] >= 0 else None

        options = self._power_options(texts, room, ap)
        remote_flip = self._flip_gain(counts, total, board, room, 3)
        homes = home_costs(tree, swinging)
        home_here = homes[at[0]][at[1]] if at[0] >= 0 else 0.0
        free_slot = len(powers) < 3
        by_step: dict[Place, float] = {}  # the best rate through each first step
        for (limb, pos), (cost, first) in ap_paths(tree, homes, at, "FL" in powers, swinging).items():
            card = tree[limb][pos]
            kind = card["card"]
            gain = flip = 0.0
            if kind is None:
                if remote_flip > 0:
                    gain, flip = remote_flip, 1.0
            elif kind in POWER_WORTH and free_slot and kind not in powers:
                gain = POWER_WORTH[kind]
            bank = 0.0
            if card["brown"] or card["golden"]:
                acorns, bank = self._take_gain(card, room, brown)
                gain += acorns
            if gain <= 0:
                continue
            rate = gain / max(cost + flip + homes[limb][pos] - home_here + bank, 0.25)
            if rate > by_step.get(first, 0.0):
                by_step[first] = rate
        for first, rate in by_step.items():
            move = move_text(first)
            if move in texts:  # ties broken at random, as a person would
                options.append((rate + self.rng.random() * 1e-3, move))
        best = max(options) if options else None

        if here is not None and here["card"] is None and "flip" in texts:
            flip_gain = self._flip_gain(counts, total, board, room, ap)
            intent = (obs["round"], board["at"])
            decided = self.flip_intent == intent
            if flip_gain > 0 and (decided or best is None or flip_gain >= best[0] or flip_gain >= GO_HOME_RATE):
                self.flip_intent = intent
                return first_of(texts, "drop golden", "drop brown") or "flip"  # put acorns down, then flip
        if here is not None:
            pick = gather_here(texts, board, here)
            if pick:
                return pick
        if here is not None and load and (best is None or best[0] < GO_HOME_RATE):
            home = move_text(inward(at))
            if home in texts:
                return home
        if best is not None:
            return best[1]
        if here is None:
            return None
        return "end" if "end" in texts else move_text(inward(at))

    @staticmethod
    def _power_options(texts: dict[str, Any], room: int, ap: int) -> list[tuple[float, str]]:
        """Lasso pulls (need room) and Spittoon spits, priced in points per AP like a walk."""
        options: list[tuple[float, str]] = []
        for text in texts:
            lasso = text.startswith("lasso")
            if (lasso and room > 0 and ap >= 1) or text.startswith("spit"):
                is_golden = text.endswith("golden")
                gain = 5.0 if is_golden else 1.0
                options.append((gain / (1.0 + (BANK_AP_GOLDEN if is_golden else BANK_AP_BROWN)), text))
        return options

    @staticmethod
    def _take_gain(card: Obs, room: int, carried_brown: int) -> tuple[float, float]:
        """Points gained by taking a card's acorns (golden first, swapping carried brown), and AP to bank them."""
        golden, brown = card["golden"], card["brown"]
        if not (golden or brown):
            return 0.0, 0.0
        take_golden = min(golden, room)
        swap = min(golden - take_golden, carried_brown)
        take_brown = min(brown, room - take_golden)
        gain = 5.0 * take_golden + 4.0 * swap + take_brown
        bank = BANK_AP_GOLDEN * (take_golden + swap) + BANK_AP_BROWN * (take_brown - swap)
        return gain, max(bank, 0.0)

    @staticmethod
    def _flip_gain(counts: dict[str, int], total: int, board: Obs, room: int, ap: int) -> float:
        """Expected points of a flip, from the cards nobody has seen: the leaf that fits the pockets (less its
        banking), a power for a free slot, less a Broken Branch's lost AP, Fool's Gold and Sappy Feet.
        Carried acorns are put down before flipping, so a Wind Gust past the limb's end does not take them."""
        brown, _ = carried(board)
        gain = 0.0
        for kind, (leaf_brown, leaf_golden) in LEAF_ACORNS.items():
            n = counts.get(kind, 0)
            if not n:
                continue
            if leaf_golden:
                value = 5.0 if room else (4.0 if brown else 0.0)
                value -= BANK_AP_GOLDEN * AP_WORTH
            else:
                value = min(leaf_brown, room) * (1.0 - BANK_AP_BROWN * AP_WORTH)
            gain += n * value
        held = board["powers"]
        if len(held) < 3:
            gain += sum(counts.get(kind, 0) * worth for kind, worth in POWER_WORTH.items() if kind not in held)
        gain -= counts.get("BB", 0) * max(0, ap - 1) * AP_WORTH
        owns_golden = board["nest"]["golden"] + board["burrow"]["golden"] + board["cheeks"]["golden"]
        if owns_golden or board["backpack"] == "golden":
            gain -= counts.get("FG", 0) * 4.0
        gain -= counts.get("SF", 0) * AP_WORTH
        return gain / total

    # ============================================================ solo
    def _solo(self, obs: Obs, texts: dict[str, Any]) -> str | None:
        """A solo decision: settle Fool's Gold and the Owl, bank and buy on the trunk, act on the card, walk."""
        if obs["phase"] == "fools":
            return first_of(texts, *EXCHANGES)
        if obs["phase"] == "bribe":
            return "bribe"  # the usual payment: carried brown first, the nest's points last
        board = obs["boards"][0]
        at = where(board["at"])
        wealth: int = obs["wealth"]
        self.idle += 1
        if self.idle > SOLO_IDLE_LIMIT:  # wandering without gain: stop
            return "end game"
        if at[0] < 0:
            pick = first_of(texts, "stash golden", "stash brown")
            if pick:
                self.idle = 0
                return pick
            if "buy lasso" in texts and wealth >= self.lasso_at:
                self.idle = 0
                return "buy lasso"
        counts = unseen(obs, self.deck)
        here = obs["tree"][at[0]][at[1]] if at[0] >= 0 else None
        if here is not None:
            pick = self._solo_on_card(obs, texts, board, at, here, counts)
            if pick:
                return pick
        return self._solo_trip(obs, texts, board, at, counts)

    def _solo_on_card(
        self, obs: Obs, texts: dict[str, Any], board: Obs, at: Place, here: Obs, counts: dict[str, int]
    ) -> str | None:
        """Lasso acorns inward, flip what a shift left face down, walk on over face-down cards with empty
        cheeks (gathering on the way back), else gather."""
        limb, pos = at
        if "LA" in board["powers"]:  # pull what lies further out onto this card: free, and nearer home
            pick = first_of(texts, f"lasso L{limb + 1}c{pos + 2} golden", f"lasso L{limb + 1}c{pos + 2} brown")
            if pick:
                self.idle = 0
                return pick
        if here["card"] is None and "flip" in texts:
            return "flip"
        row = obs["tree"][limb]
        brown, golden = carried(board)
        wealth: int = obs["wealth"]
        load = brown + 5 * golden
        insured = wealth - load >= 3 or not counts.get("OW", 0)
        exploring = pos + 1 < len(row) and row[pos + 1]["card"] is None
        if exploring and (insured or wealth >= 3):
            total = sum(counts.values()) or 1
            room = capacity(board) - brown - golden
            gain = self._solo_flip_gain(counts, total, room)
            if gain - self._solo_flip_risk(counts, total, load, brown, wealth) > self.explore_margin:
                self.idle = 0
                return f"move L{limb + 1}c{pos + 2}"  # the acorns here wait for the free walk back
            return None
        pick = gather_here(texts, board, here)
        if pick:
            self.idle = 0
        return pick

    def _solo_trip(self, obs: Obs, texts: dict[str, Any], board: Obs, at: Place, counts: dict[str, int]) -> str | None:
        """One step toward the place worth most net of its price; home when loaded and nothing pays."""
        tree = obs["tree"]
        powers = board["powers"]
        wealth: int = obs["wealth"]
        brown, golden = carried(board)
        room = capacity(board) - brown - golden
        load = brown + 5 * golden
        total = sum(counts.values()) or 1
        toll = 1.0 if brown else (5.0 if golden else 0.0)  # Sticky Fingers takes the lowest carried acorn
        back_out = self._solo_return_cost(tree, at)
        best: tuple[float, int, Place] | None = None
        fallback: tuple[float, int, Place] | None = None
        for place, (cost, moves, first) in solo_paths(tree, at, "FL" in powers, "SW" in powers, toll).items():
            if place[0] < 0 or place == at:
                continue
            card = tree[place[0]][place[1]]
            if card["card"] is None:
                risk = self._solo_flip_risk(counts, total, load, brown, wealth - cost)
                if load and cost == 0 and risk > back_out:
                    continue  # cheaper to bank first and walk back out
                gain = self._solo_flip_gain(counts, total, room)
                net = gain - risk - cost
                # Against stopping, an unpaid Owl only stops the game too: price the flip without the Owl's ruin.
                plain = gain - cost - self._solo_flip_risk(counts, total, load, brown, float(wealth + 3))
                least = self.min_flip_net
                if plain > least and outranks(plain, moves, fallback):
                    fallback = (plain, moves, first)
            else:
                if not (card["golden"] or card["brown"]):
                    continue
                take_golden = min(card["golden"], room)
                swap = min(card["golden"] - take_golden, brown)
                take_brown = min(card["brown"], room - take_golden)
                net = 5 * take_golden + 4 * swap + take_brown - cost
                least = self.min_net
            if net > least and outranks(net, moves, best):
                best = (net, moves, first)
        step = best[2] if best is not None else (fallback[2] if fallback is not None else None)
        if step is not None and not (room == 0 and at[0] >= 0 and step == inward(at)):
            if best is not None and best[0] > 0.5:
                self.idle = 0
            return move_text(step)
        if at[0] >= 0:
            home = move_text(inward(at))
            return home if home in texts else "end game"
        if "buy swinging" in texts and wealth >= self.swinging_at and self._behind_broken_branch(tree):
            return "buy swinging"  # the only way past Broken Branches in solo
        return "end game"

    @staticmethod
    def _behind_broken_branch(tree: list[list[Obs]]) -> bool:
        """Whether a face-down card lies beyond a revealed Broken Branch (only Swinging Squirrel gets there)."""
        return any(
            card["card"] is None and any(c["card"] == "BB" for c in row[:pos])
            for row in tree
            for pos, card in enumerate(row)
        )

    @staticmethod
    def _solo_return_cost(tree: list[list[Obs]], at: Place) -> float:
        """Points to walk back out here from the trunk: one per face-up card on the way."""
        if at[0] < 0:
            return 0.0
        return float(sum(1 for q in range(at[1] + 1) if tree[at[0]][q]["card"] is not None))

    def _solo_flip_gain(self, counts: dict[str, int], total: int, room: int) -> float:
        """Expected points of a solo flip: the leaf's acorns that fit now, the rest at ``later_share``."""
        value = 0.0
        for kind, (leaf_brown, leaf_golden) in LEAF_ACORNS.items():
            n = counts.get(kind, 0)
            if not n:
                continue
            if leaf_golden:
                worth = 5.0 if room else 5.0 * self.later_share
            else:
                now = min(leaf_brown, room)
                worth = now + self.later_share * (leaf_brown - now)
            value += n * worth
        return value / total

    def _solo_flip_risk(self, counts: dict[str, int], total: int, load: int, brown: int, wealth: float) -> float:
        """Expected points a solo flip loses: what is carried to a Broken Branch (times ``fall_weight``), the
        Owl's bribe (or the game, priced ``owl_ruin``, without 3 points to pay), Sticky Fingers' pick of the
        lowest carried acorn."""
        risk = counts.get("BB", 0) * float(load) * self.fall_weight
        if counts.get("OW", 0) and wealth - load < 3:
            risk *= self.uninsured_fall  # the fall would also leave too little to bribe the Owl
        if counts.get("OW", 0):
            risk += counts["OW"] * (3.0 if wealth >= 3 else self.owl_ruin)
        if load:
            risk += counts.get("ST", 0) * (1.0 if brown else 5.0)
        return risk / total
