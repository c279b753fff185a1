"""openskill ratings of the agents of a tournament.

Each game is a match between the agents that took part, ranked by their share of the win (``returns()``:
the winner first, the others tied behind; an agent holding several seats adds their shares). Games are
rated in game-index order, so the same games always give the same ratings, however and in whatever order
they were played. A game with a single agent at the table (a solo game) says nothing about the others and
is not rated.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from oakwood.store import Rating, TournamentGame


def rate(games: Sequence[TournamentGame], agents: Sequence[str]) -> list[Rating]:
    """Every agent's rating (``mu`` ± ``sigma``, ordinal = mu − 3 sigma) after ``games``, in ``agents`` order;
    an agent never rated keeps the model's prior."""
    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in agents}
    rated = dict.fromkeys(agents, 0)
    for game in sorted(games, key=lambda g: g.index):
        shares: dict[str, float] = {}
        for seat, name in enumerate(game.agents):
            shares[name] = shares.get(name, 0.0) + game.returns[seat]
        if len(shares) < 2:
            continue
        present = list(shares)
        levels = sorted(set(shares.values()), reverse=True)
        ranks = [float(levels.index(shares[name]) + 1) for name in present]  # equal shares, equal ranks
        updated = model.rate([[current[name]] for name in present], ranks=ranks)
        for name, team in zip(present, updated, strict=True):
            current[name] = team[0]
            rated[name] += 1
    return [
        Rating(
            agent=name,
            mu=current[name].mu,
            sigma=current[name].sigma,
            ordinal=current[name].ordinal(),
            games=rated[name],
        )
        for name in agents
    ]
