"""Information-set Monte Carlo tree search (ISMCTS) for every game, through the agent contract only.

The search follows Cowling, Powley & Whitehouse (IEEE TCIAIG 2012) and OpenSpiel's ``is_mcts``:

- **One shared tree of information sets, re-determinized every iteration.** Each iteration draws a world from
  the view (``sample_states``: everything hidden from the bot re-sampled consistently with what it knows) and
  walks down the tree in that world.
- **Every seat decides at its own information set.** A node is keyed by the acting seat and what that seat
  observes there (its ``observe``, as ``Game.information_key`` writes it), never by the world's hidden
  cards, so the search does not assume an opponent sees the bot's hand, nor the bot the opponents'. A commit
  decision is searched one seat at a time in a random order: each seat's key shows only who has chosen.
- **Availability counts in UCB**: an action's exploration term counts only the iterations in which it was
  legal (worlds differ in what is legal).
- **Truncated playouts with a normalised evaluation**: after leaving the tree, play continues for at most
  ``playout_steps`` actions, then ``game.estimate_returns`` (or an ``evaluate`` given, such as a learned value)
  scores the position in [0, 1] per seat (random play never ends some games here).
- **A walk back at an information set of its own path** (free moves in a circle) stops there, and the seat
  that went round is scored what the tree says that information set is worth (``Node.mean``): a circle
  changes nothing for it, and scored by a playout it looked better than the moves the tree explores.
- **The most visited action** is played; budgets are iterations, seconds, or both (whichever ends first).

**A guide** (optional: the game's heuristic bot, as the levels use it) makes the search build on what the
heuristic knows instead of rediscovering it from random play, which with a Python budget of a few thousand
iterations it cannot (measured in issue 9: unguided search lost every Nutty game to the heuristic):

- the playouts are the guide's moves at every seat (each guide sees only its seat of the world), with a
  random move (the game's ``playout_action``) at a rate of ``guide_epsilon`` so that playouts still vary;
- at a new node the guide's move is tried first and favoured afterwards by a progressive bias
  ``guide_bias / (visits + 1)`` that fades as evidence comes in; this also models opponents: their nodes are
  new in most worlds, and a fresh opponent node plays what the heuristic would rather than a random move;
- at the root the bot keeps the guide's move unless the search's choice is better by ``guide_z`` standard
  errors of the two mean returns: search evaluations differ by a few hundredths, as much as their noise, and
  a bot that follows noise away from a good heuristic plays worse than the heuristic;
- where the game asks for it (``Game.confirm_departures``, by table size) that choice must also win on
  ``confirm`` fresh worlds: each world played on by the guide after either move, paired so that only the move
  differs, and the mean gain ``guide_z`` standard errors above nothing. The search's own margin is biased
  towards a departure: the action it visits most is the one whose returns came out high by chance, the
  more so the more actions there are (a Nutty solo decision has a dozen), and fresh worlds carry no such bias.

The tree is kept between the bot's moves: a node is an information set, so whatever the bot learnt of an
information set it meets again still holds. Kept whole it grows by about one node an iteration for the whole
match (a four-player S'Quarrels game left its four expert bots 323,000 nodes, 620 MB: a node costs 2–5 KB,
half of it or more the key's text), so ``keep`` bounds it (the web server's bots use it): after each move the
tree is cut to the information sets the last search reached — those under the position it searched, which the
next search can meet again; those of positions the game has left behind are dropped — and to the ``keep`` most
visited of them. What a kept tree gives the next search is the visits its root already has (5–21 % of a
search's iterations in the three games), and nearly all of those are in the few most visited nodes of the last
search. Searches are deterministic for a seed and an iteration budget, with or without ``keep``.
In a race (a S'Quarrels Hoard) the bot answers with a human-like reaction delay, drawn from the same range as
the heuristic bot's, so that a level's strength lies in its decisions and not in faster reflexes.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from oakwood.engine import Decision, Rng, State
from oakwood.engine.agent import Agent, Choice, PlayerView

#: The tree is cleared when it grows past this many information sets (bounded memory over long matches).
MAX_NODES = 200_000


@dataclass
class Node:
    """The statistics of one information set: per action, visits, total reward and availability."""

    visits: dict[Hashable, int] = field(default_factory=dict)
    reward: dict[Hashable, float] = field(default_factory=dict)
    squares: dict[Hashable, float] = field(default_factory=dict)  # sums of squared rewards: their spread
    available: dict[Hashable, int] = field(default_factory=dict)
    #: The guide bot's move here (None without a guide): tried first, then favoured by a bias that fades.
    hint: Hashable = None
    #: The number of the last search whose walks reached this node (what ``ISMCTSAgent.keep`` keeps).
    reached: int = 0

    def select(self, legal: tuple[Hashable, ...], exploration: float, bias: float, rng: Rng) -> Hashable:
        """The guide's move if untried, else an untried legal action (at random), else the best by UCB with
        availability plus a progressive bias ``bias / (visits + 1)`` towards the guide's move."""
        visits, available = self.visits, self.available
        for action in legal:
            available[action] = available.get(action, 0) + 1
        hint = self.hint
        if hint is not None and hint not in visits and hint in legal:
            return hint
        untried = [action for action in legal if action not in visits]
        if untried:
            return untried[rng.randbelow(len(untried))]
        reward = self.reward
        best, best_score = legal[0], -math.inf
        for action in legal:
            n = visits[action]
            score = reward[action] / n + exploration * math.sqrt(math.log(available[action]) / n)
            if action == hint:
                score += bias / (n + 1)
            if score > best_score:
                best, best_score = action, score
        return best

    def update(self, action: Hashable, value: float) -> None:
        """One more visit of ``action`` that came back with ``value``."""
        self.visits[action] = self.visits.get(action, 0) + 1
        self.reward[action] = self.reward.get(action, 0.0) + value
        self.squares[action] = self.squares.get(action, 0.0) + value * value

    def mean(self) -> float | None:
        """The mean return over every visit of this information set (None before its first)."""
        total = sum(self.visits.values())
        return sum(self.reward.values()) / total if total else None

    def margin(self, action: Hashable, other: Hashable) -> float:
        """How many standard errors ``action``'s mean return is above ``other``'s (0 if either is unvisited)."""
        n, m = self.visits.get(action, 0), self.visits.get(other, 0)
        if n < 2 or m < 2:
            return 0.0
        mean_a, mean_b = self.reward[action] / n, self.reward[other] / m
        var_a = max(self.squares[action] / n - mean_a * mean_a, 0.0)
        var_b = max(self.squares[other] / m - mean_b * mean_b, 0.0)
        spread = math.sqrt(var_a / n + var_b / m)
        return (mean_a - mean_b) / spread if spread > 0 else 0.0


@dataclass(frozen=True)
class SearchReport:
    """What the last search did: for the hint screen, tests and the benchmarks."""

    iterations: int
    seconds: float
    visits: dict[Hashable, int]
    values: dict[Hashable, float]  # each legal action's mean return for the bot, as the search saw it
    ranking: tuple[Hashable, ...] = ()  # the legal actions, the bot's choice first (see ``ISMCTSAgent.rank``)

    def __reduce__(self) -> tuple[type[SearchReport], tuple[Any, ...]]:
        """Pickle as a call of the constructor."""
        # Compiled by mypyc, a frozen dataclass no longer unpickles field by field (its ``__setattr__`` refuses):
        # it is rebuilt from its fields instead, in both forms (the process pool and dask pickle it).
        return (SearchReport, (self.iterations, self.seconds, self.visits, self.values, self.ranking))


class ISMCTSAgent:
    """Information-set MCTS with an iteration budget, a time budget, or both."""

    name = "ismcts"
    searches = True  # its views carry a world to sample from
    reads_observation = True

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        playout_steps: int = 40,
        reaction: tuple[float, float] = (0.35, 1.1),
        guide: Callable[[int], Agent] | None = None,
        guide_epsilon: float = 0.1,
        guide_bias: float = 0.5,
        guide_z: float = 2.0,
        confirm: int | None = None,
        keep: int | None = None,
        evaluate: Callable[[State], list[float]] | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("ISMCTS needs an iteration budget, a time budget, or both")
        if (iterations is not None and iterations < 1) or (seconds is not None and not seconds > 0):
            raise ValueError("the budgets must be positive")
        if keep is not None and keep < 0:
            raise ValueError("keep is a number of nodes: 0 or more")
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.playout_steps = playout_steps
        self.reaction = reaction
        self.guide = guide  # builds a guide bot from a seed (see the module docstring)
        self.guide_epsilon = guide_epsilon
        self.guide_bias = guide_bias
        self.guide_z = guide_z
        #: Fresh worlds that must confirm a departure from the guide (None: the game's ``confirm_departures``).
        self.confirm = confirm
        #: The most information sets kept between moves: after each move the tree is cut to the nodes its search
        #: reached, the ``keep`` most visited of them (0: none). None keeps the whole tree (up to ``MAX_NODES``), as
        #: the arena's bots do. A search adds at most one node an iteration, so the tree of a bot is never larger
        #: than ``keep`` plus its iteration budget (see the module docstring).
        self.keep = keep
        #: Scores a playout's last position, each seat's share in [0, 1] (None: the game's ``estimate_returns``);
        #: a learned evaluation (``benchmarks/value_net.py``) goes here.
        self.evaluate = evaluate
        #: The information sets searched, by ``(seat, Game.information_key(observation))``.
        self.tree: dict[tuple[int, str], Node] = {}
        self._searches = 0  # searches run so far: the number a node's ``reached`` is stamped with
        #: How often each action was played from each information set (back at one, see ``_after_circle``).
        self.played: dict[tuple[int, str], Counter[Hashable]] = {}
        self.last: SearchReport | None = None

    # ------------------------------------------------------------------ the agent
    def act(self, view: PlayerView) -> Hashable | Choice:
        """The best action after searching from ``view`` (``rank``), with a reaction delay in a race."""
        legal = view.legal_actions
        if len(legal) == 1:
            action = legal[0]
            self.last = SearchReport(0, 0.0, {action: 0}, {}, (action,))
        else:
            report = self.search(view)
            key = (view.seat, view.game.information_key(view.observation))
            root = self.tree.get(key)
            played = self.played.setdefault(key, Counter())
            action = _after_circle(report.ranking, root.hint if root is not None else None, played)
            played[action] += 1
            self._trim()
        return with_reaction(action, view, self.reaction, self.rng)

    def search(self, view: PlayerView) -> SearchReport:
        """Run the budget from ``view`` and report each legal action's visits and value."""
        if len(self.tree) > MAX_NODES:
            self.tree.clear()
            self.played.clear()
        self._searches += 1
        tree = self.tree  # this search's tree, even if ``forget`` lets it go meanwhile (from another thread)
        seat, rng = view.seat, self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        start = time.perf_counter()
        root_key = (seat, view.game.information_key(view.observation))
        done = 0
        while True:
            world = next(view.sample_states(1, rng))
            self._iterate(world, seat, rng, tree)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        root = tree.get(root_key, Node())
        values = {a: root.reward[a] / n for a, n in root.visits.items() if n}
        ranking = self.rank(root, view.legal_actions)
        hint = root.hint
        if hint is not None and ranking[0] != hint and not self._confirmed(view, ranking[0], hint):
            ranking = (hint, *(action for action in ranking if action != hint))
        self.last = SearchReport(done, time.perf_counter() - start, dict(root.visits), values, ranking)
        return self.last

    def forget(self) -> None:
        """Let go of the whole tree and of the moves played (the game is over: what is left is garbage now).
        Safe while a search runs in another thread: that search goes on with the tree it began with, which is
        garbage when it ends, since this only rebinds and never changes a tree."""
        self.tree = {}
        self.played = {}

    def _trim(self) -> None:
        """Cut the tree to what the next move can use (``keep``): the nodes the last search reached, at most
        ``keep`` of them, the most visited first. The others are freed at once; the dict keeps its table until
        new nodes fill it, which is bounded too (``keep`` plus a search's iterations)."""
        keep, tree, last = self.keep, self.tree, self._searches
        if keep is None:
            return
        reached = [key for key, node in tree.items() if node.reached == last]
        if len(reached) > keep:
            # sorted is stable: among nodes visited as often the older one stays, so the cut is deterministic
            reached = sorted(reached, key=lambda key: -sum(tree[key].visits.values()))[:keep]
        chosen = set(reached)
        for key in [key for key in tree if key not in chosen]:
            del tree[key]

    def rank(self, root: Node, legal: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
        """The legal actions best first: by visits, then mean return; but the guide's move goes first unless
        the most visited action's mean return is ``guide_z`` standard errors above it (see the module
        docstring: a search that follows its noise away from a good heuristic plays worse than it)."""
        ranked = sorted(
            legal, key=lambda a: (-root.visits.get(a, 0), -(root.reward.get(a, 0.0) / (root.visits.get(a) or 1)))
        )
        hint = root.hint
        if hint is not None and hint in legal and ranked[0] != hint and root.margin(ranked[0], hint) < self.guide_z:
            ranked.remove(hint)
            ranked.insert(0, hint)
        return tuple(ranked)

    def _confirmed(self, view: PlayerView, departure: Hashable, hint: Hashable) -> bool:
        """Whether fresh worlds confirm that ``departure`` beats the guide's ``hint`` (see the module
        docstring); true where no confirmation is asked for."""
        wanted = self.confirm if self.confirm is not None else view.game.confirm_departures.get(view.num_players, 0)
        if wanted < 1 or self.guide is None:
            return True
        seat, rng = view.seat, self.rng
        gains = []
        for world in view.sample_states(wanted, rng):
            playout_seed = rng.randbelow(1 << 30)  # the same playout dice after either move
            returns = []
            for action in (departure, hint):
                branch = world.clone()
                branch.record_events = False
                branch.apply(seat, action)
                self._guided_playout(branch, Rng(playout_seed), self.guide, epsilon=0.0)
                returns.append(self._value(branch)[seat])
            gains.append(returns[0] - returns[1])
        mean = sum(gains) / wanted
        if mean <= 0:
            return False
        spread = math.sqrt(sum((gain - mean) ** 2 for gain in gains) / max(wanted - 1, 1))
        return spread == 0 or mean / (spread / math.sqrt(wanted)) >= self.guide_z

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, world: State, root_seat: int, rng: Rng, tree: dict[tuple[int, str], Node] | None = None) -> None:
        """Select and expand in ``world`` down the shared tree (``tree``, by default the agent's), play out, back
        the evaluation up."""
        if tree is None:
            tree = self.tree
        world.record_events = False  # nobody reads a world's log
        path: list[tuple[Node, Hashable, int]] = []
        visited: set[tuple[int, str]] = set()
        repeated: tuple[Node, int] | None = None  # the information set a free cycle of moves led back to
        first = True
        expanded = False
        information_key = world.game.information_key
        while not world.is_terminal() and not expanded:
            seat = root_seat if first else _pick_seat(world.to_act(), rng)
            first = False
            legal = world.legal_actions(seat)
            if len(legal) == 1:  # a forced move is no decision: no node for it
                world.apply(seat, legal[0])
                continue
            key = (seat, information_key(world.observe(seat)))
            if key in visited:  # back at an information set of this walk (free moves can go round in circles)
                repeated = (tree[key], seat)
                break
            visited.add(key)
            node = tree.get(key)
            if node is None:
                node = tree[key] = Node()
                if self.guide is not None:
                    node.hint = _move_of(self.guide(rng.randbelow(1 << 30)), world, seat)
                expanded = True
            node.reached = self._searches
            action = node.select(legal, self.exploration, self.guide_bias, rng)
            path.append((node, action, seat))
            world.apply(seat, action)
        if self.guide is None:
            self._random_playout(world, rng)
        else:
            self._guided_playout(world, rng, self.guide)
        value = self._value(world)
        if repeated is not None:
            # The circle changed nothing for the seat that went round: the tree's worth of where it came back
            # to (see the module docstring; a playout from the repeat made circles look best).
            node, seat = repeated
            known = node.mean()
            if known is not None:
                value = [*value]
                value[seat] = known
        for node, action, seat in path:
            node.update(action, value[seat])

    def _value(self, world: State) -> list[float]:
        """Each seat's share of ``world`` where a playout left it: ``evaluate``'s, else the game's estimate."""
        evaluate = self.evaluate
        return world.game.estimate_returns(world) if evaluate is None else evaluate(world)

    def _random_playout(self, world: State, rng: Rng) -> None:
        """At most ``playout_steps`` moves of the game's ``playout_action`` (uniformly random by default)."""
        steps = 0
        playout_action = world.game.playout_action
        while steps < self.playout_steps and not world.is_terminal():
            seat = _pick_seat(world.to_act(), rng)
            world.apply(seat, playout_action(world, seat, world.legal_actions(seat), rng))
            steps += 1

    def _guided_playout(
        self, world: State, rng: Rng, make: Callable[[int], Agent], epsilon: float | None = None
    ) -> None:
        """At most ``playout_steps`` moves of the guide at every seat (a fresh guide per seat, each seeing only
        its seat of the world), with a random move instead at a rate of ``epsilon`` (``guide_epsilon``)."""
        steps = 0
        bots: dict[int, Agent] = {}
        playout_action = world.game.playout_action
        epsilon = self.guide_epsilon if epsilon is None else epsilon
        while steps < self.playout_steps and not world.is_terminal():
            seat = _pick_seat(world.to_act(), rng)
            legal = world.legal_actions(seat)
            if len(legal) == 1:
                action = legal[0]
            elif rng.random() < epsilon:
                action = playout_action(world, seat, legal, rng)
            else:
                bot = bots.get(seat)
                if bot is None:
                    bot = bots[seat] = make(rng.randbelow(1 << 30))
                action = _move_of(bot, world, seat)
            world.apply(seat, action)
            steps += 1


def _after_circle(ranking: tuple[Hashable, ...], hint: Hashable | None, played: Counter[Hashable]) -> Hashable:
    """The move to play: the search's first, unless free moves have led back to an information set the bot
    has played from (a Nutty stash then unstash). A circle starts where the bot left its guide, so back
    there it plays the guide's move (a second time at most); else what it has not tried there, or it would go
    round for ever. The next-ranked move alone broke two-player Nutty circles by unstashing acorns or ending
    the turn with them unstashed (6 times in the 193 decisions of two games)."""
    if not played:
        return ranking[0]
    if hint is not None and played[hint] < 2:
        return hint
    return next((action for action in ranking if action not in played), ranking[0])


def _move_of(bot: Agent, world: State, seat: int) -> Hashable:
    """What ``bot`` plays for ``seat`` in ``world`` (a world of the search: its truth is the bot's guess)."""
    chosen = bot.act(PlayerView.of(world, seat))
    return chosen.action if isinstance(chosen, Choice) else chosen


def with_reaction(action: Hashable, view: PlayerView, reaction: tuple[float, float], rng: Rng) -> Hashable | Choice:
    """``action``, or in a race ``action`` with a human-like reaction delay drawn from ``reaction`` (a search's
    strength must lie in its decisions, not in faster reflexes)."""
    if view.decision is Decision.RACE:
        low, high = reaction
        return Choice(action, delay=low + (high - low) * rng.random())
    return action


def _pick_seat(seats: tuple[int, ...], rng: Rng) -> int:
    """The seat to move next: the only one, or at a commit or race a random one of those still to answer."""
    return seats[0] if len(seats) == 1 else seats[rng.randbelow(len(seats))]
