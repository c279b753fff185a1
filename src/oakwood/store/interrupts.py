"""Ctrl-C must never cut a write in half: a batch either lands whole or not at all, and the interrupt is
delivered as soon as the write is over."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) back for the duration of the block, then raise ``KeyboardInterrupt`` after it.

    Only Python's default handler is replaced, and only in the main thread (where signals are delivered);
    a program that set its own handler, or ignores SIGINT, keeps it.
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    caught: list[int] = []

    def remember(signum: int, _frame: FrameType | None) -> None:
        caught.append(signum)

    signal.signal(signal.SIGINT, remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt
