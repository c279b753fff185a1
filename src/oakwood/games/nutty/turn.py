"""Nutty Squirrels multiplayer turn bookkeeping: the turn fields, who may use which power (the Doppelgänger's
copy), the start and end of a turn with its action points, the end trigger and the end of the game
(NS-9, NS-13 – NS-15), and the turn fields of the notation.
"""

from __future__ import annotations

from typing import Any, Final

from oakwood.engine.native import mypyc_attr

from .cards import (
    BACKPACK,
    DOPPEL,
    OWL,
    POWERS,
    SAPPY,
    SUGAR,
)
from .tree import CHEEKS, NOBODY, WIN_POINTS, TreeState

BASE_AP: Final = 3


@mypyc_attr(allow_interpreted_subclasses=True)  # see State: clones and loaded positions skip __init__
class TurnState(TreeState):
    """The multiplayer turn fields and their bookkeeping; ``state.py`` adds the actions."""

    __slots__ = (
        "ap",
        "copy",
        "copy_spent",
        "current",
        "end_triggered",
        "first",
        "round_no",
        "spit_used",
        "sticky_used",
        "turns_left",
        "win_seats",
    )

    current: int
    ap: int
    first: int
    round_no: int
    sticky_used: bool
    spit_used: bool
    copy: str  # the power a Doppelgänger copies this turn ("" when none)
    copy_spent: bool  # single_use copies, and a copied Owl, are spent once used
    phase: str  # "turn", "fools" (the active player picks the golden Fool's Gold takes) or "over"
    turns_left: int  # -1, or how many turns follow the current one before the game ends (NS-14/15)
    end_triggered: bool
    win_seats: list[int]

    def _init_turn_fields(self) -> None:
        self.current = self.first = 0
        self.ap = 0
        self.round_no = 1
        self.sticky_used = self.spit_used = self.copy_spent = False
        self.copy = ""
        self.phase = "turn"
        self.turns_left = -1
        self.end_triggered = False
        self.win_seats = []

    # ================================================================== options and helpers
    @property
    def opts(self) -> Any:
        """The game's options."""
        return self.game.options

    def has(self, seat: int, power: str) -> bool:
        """Whether ``seat`` may use ``power`` now: on its board, or copied this turn by the Doppelgänger."""
        return power in self.powers[seat] or (seat == self.current and self.copy == power and not self.copy_spent)

    def _has_copy(self, seat: int, power: str) -> bool:
        return seat == self.current and self.copy == power

    def _spend_copy(self, seat: int, power: str) -> None:
        """A single_use copy ends once the copied power is used (NS-13); a copied Owl always does."""
        copied = power not in self.powers[seat] and self.copy == power
        if copied and (power == OWL or self.opts.doppelganger_duration == "single_use"):
            self.copy_spent = True

    def capacity(self, seat: int) -> int:
        """Carrying limit: two in the cheeks, one more with a Backpack (NS-11)."""
        return CHEEKS + (1 if self.has(seat, BACKPACK) else 0)

    def has_room(self, seat: int) -> bool:
        """Whether the squirrel can take one more acorn."""
        return self.carried(seat) < self.capacity(seat)

    # ================================================================== END OF A TURN
    def _end_turn(self) -> None:
        """Discard applied Sappy Feet, end a Doppelgänger copy, pass clockwise; the end trigger countdown."""
        s = self.current
        self.out_known += [SAPPY] * self.sappy_now[s]
        self.sappy_now[s] = 0
        if self.copy:  # NS-13: the Doppelgänger leaves play at the end of the turn it was used in
            if self.copy == BACKPACK and BACKPACK not in self.powers[s]:  # a claimed real one keeps its acorn
                self.rescue_backpack(s)
            self.copy = ""
            self.copy_spent = False
            self.powers[s] = tuple(p for p in self.powers[s] if p != DOPPEL)
            self.out_known.append(DOPPEL)
        self.sticky_used = self.spit_used = False
        if self.turns_left == 0:
            self._finish("final round over")
            return
        if self.turns_left > 0:
            self.turns_left -= 1
        self.current = (s + 1) % self.num_players
        if self.current == self.first:
            self.round_no += 1
            if self.round_no > self.opts.max_rounds:
                self._finish("round limit")
                return
        self._begin_turn()

    def _begin_turn(self) -> None:
        """AP = 3 + Sugar Rush − Sappy Feet, at least 0 (NS-9)."""
        s = self.current
        self.sappy_now[s] = self.sappy_next[s]
        self.sappy_next[s] = 0
        self.ap = max(0, BASE_AP + (1 if SUGAR in self.powers[s] else 0) - self.sappy_now[s])
        self._event("turn", seat=s, ap=self.ap, round=self.round_no)

    def _rest_of_round(self, s: int) -> int:
        """How many turns of the current round follow seat ``s``'s turn."""
        return (self.first - 1 - s) % self.num_players

    def _check_end_trigger(self, s: int) -> None:
        """NS-14: the last face-down card revealed: finish the round, then one more turn each."""
        if self.end_triggered or self.phase == "over":
            return
        if self.face_down_left() or (self.opts.end_trigger == "all_cards_revealed" and self.deck):
            return
        self.end_triggered = True
        left = self._rest_of_round(s) + self.num_players
        self.turns_left = left if self.turns_left < 0 else min(self.turns_left, left)
        self._event("end_triggered", seat=s, turns_left=self.turns_left)

    def _check_win(self, s: int) -> None:
        """NS-15: 20 buried points win at once (or, as a variant, at the end of the round)."""
        if self.points(s) < WIN_POINTS or self.phase == "over":
            return
        if self.opts.win_at_20 == "immediate":
            self.win_seats = [s]
            self.phase = "over"
            self._event("game_over", winners=[s], reason="20 points", scores=self._points_all())
            return
        left = self._rest_of_round(s)
        self.turns_left = left if self.turns_left < 0 else min(self.turns_left, left)

    def _points_all(self) -> list[int]:
        return [self.points(s) for s in range(self.num_players)]

    def tie_key(self, seat: int) -> tuple[int, int, int]:
        """Points, then golden acorns (NS-15 scope), then the value of unburied acorns."""
        golden = self.bur_g[seat]
        if self.opts.tb_golden_scope == "all_possessed":
            golden += self.cheeks_g[seat] + self.nest_g[seat] + self.stick_g[seat] + (self.pack[seat] == "g")
        loose = self.cheeks_b[seat] + self.nest_b[seat] + self.stick_b[seat] + (self.pack[seat] == "b")
        loose += 5 * (self.cheeks_g[seat] + self.nest_g[seat] + self.stick_g[seat] + (self.pack[seat] == "g"))
        return (self.points(seat), golden, loose)

    def _finish(self, reason: str) -> None:
        keys = [self.tie_key(s) for s in range(self.num_players)]
        best = max(keys)
        self.win_seats = [s for s in range(self.num_players) if keys[s] == best]
        self.phase = "over"
        self._event("game_over", winners=self.win_seats, reason=reason, scores=self._points_all())

    # ================================================================== notation (the turn fields)
    def notation_fields(self) -> list[str]:
        """The multiplayer turn fields of the notation (see ``notation.py``)."""
        copy = (self.copy + ("!" if self.copy_spent else "")) if self.copy else "-"
        win = ",".join(str(s + 1) for s in self.win_seats) or "-"
        return [
            f"turn={self.current + 1}.{self.ap}.{self.first + 1}.{self.round_no}",
            f"used={int(self.sticky_used)}.{int(self.spit_used)}",
            f"copy={copy}",
            f"end={int(self.end_triggered)}.{self.turns_left}",
            f"phase={self.phase}",
            f"win={win}",
        ]

    def read_fields(self, fields: dict[str, str]) -> None:
        """Read the turn fields written by :meth:`notation_fields` (removing them from ``fields``).

        Only the syntax and the ranges are checked here; ``consistency.py`` checks the position as a whole.
        """
        from .notation import bad, need, read_int

        n = self.num_players
        text = need(fields, "turn")
        parts = text.split(".")
        if len(parts) != 4:
            raise bad("expected current.ap.first.round", "turn", text)
        current = read_int(parts[0], "turn", 1, n)
        ap = read_int(parts[1], "turn", 0, BASE_AP + 2)  # 3, +1 Sugar Rush, +1 a copied Sugar Rush (NS-9, NS-13)
        first = read_int(parts[2], "turn", 1, n)
        round_no = read_int(parts[3], "turn", 1, self.opts.max_rounds + 1)
        self.current, self.ap, self.first, self.round_no = current - 1, ap, first - 1, round_no
        text = need(fields, "used")
        if text not in ("0.0", "0.1", "1.0", "1.1"):
            raise bad("expected sticky.spittoon flags like 0.1", "used", text)
        self.sticky_used, self.spit_used = text[0] == "1", text[2] == "1"
        text = need(fields, "copy")
        power, spent = (text[:-1], True) if text.endswith("!") else (text, False)
        if text != "-" and (power not in POWERS or power == DOPPEL):
            raise bad("expected - or a copied power code other than DO, with ! when spent", "copy", text)
        self.copy, self.copy_spent = ("", False) if text == "-" else (power, spent)
        text = need(fields, "end")
        flag, sep, left = text.partition(".")
        if flag not in ("0", "1") or not sep:
            raise bad("expected triggered.turns_left like 1.3 or 0.-1", "end", text)
        self.end_triggered, self.turns_left = flag == "1", read_int(left, "end", -1, 2 * n)
        text = need(fields, "phase")
        if text not in ("turn", "fools", "over"):
            raise bad("expected turn, fools or over", "phase", text)
        self.phase = text
        text = need(fields, "win")
        seats = [] if text == "-" else [read_int(p, "win", 1, n) - 1 for p in text.split(",")]
        if seats != sorted(set(seats)):
            raise bad("expected - or winner seats in increasing order, each once", "win", text)
        self.win_seats = seats
        self._cache, self._cache_seat = None, NOBODY
