"""Ctrl-C during a write: the batch lands whole, then the interrupt is delivered."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from oakwood.store import NewGame, open_store
from oakwood.store.interrupts import interrupts_deferred


@pytest.fixture
def default_sigint() -> Iterator[None]:
    """Python's own Ctrl-C handler, whatever the test runner installed."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def test_an_interrupt_inside_the_block_is_raised_after_it(default_sigint: None) -> None:
    reached = []
    with pytest.raises(KeyboardInterrupt), interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("after the signal")
    assert reached == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_no_interrupt_no_exception_and_a_custom_handler_is_left_alone(default_sigint: None) -> None:
    with interrupts_deferred():
        pass
    calls: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    with interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
    assert calls == [signal.SIGINT]


def test_ctrl_c_in_the_middle_of_a_batch_keeps_the_whole_batch(default_sigint: None, tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'games.db'}")
    games = [
        NewGame("squarrels", {}, 2, seed, [(0, 1)], [1.0, 0.0], [1.0, 0.0], [0], ["random", "random"], "simulate")
        for seed in range(5)
    ]

    pressed: list[bool] = []

    def press_ctrl_c(*_args: Any) -> None:
        if not pressed:  # once, as the games are inserted: before their seats are
            pressed.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    event.listen(store.engine, "before_cursor_execute", press_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        store.record_games(games)
    listed = store.list_games()
    assert len(listed) == 5 and all(g.agents == ["random", "random"] for g in listed)
    store.close()
