"""Events: the log of what happened, each with who may see which form of it.

An event has a public form that every seat and spectator sees, and optionally a private form (extra
fields) that only its audience sees — for example "P2 took a card from the Hoard Pile" for all, and
"…it was the Rotten Acorn" for P2 alone. The log is a persistent linked list so that cloning a state shares
it in constant time.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs several times more, on the hot path
class Event:
    """One thing that happened. ``audience`` None means the private part (if any) is also public.

    Treat events as immutable once logged: states share their logs.
    """

    kind: str
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[str, Any] | None = None
    audience: frozenset[int] | None = None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The form of this event that ``seat`` (None: a spectator) may see, as JSON-ready data."""
        out: dict[str, Any] = {"kind": self.kind, **self.public}
        if self.private is not None and (self.audience is None or (seat is not None and seat in self.audience)):
            out.update(self.private)
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole event, hidden parts included (for saving a state, never for sending to a player)."""
        return {
            "kind": self.kind,
            "public": dict(self.public),
            "private": None if self.private is None else dict(self.private),
            "audience": None if self.audience is None else sorted(self.audience),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        audience = data.get("audience")
        private = data.get("private")
        return cls(
            kind=data["kind"],
            public=dict(data.get("public", {})),
            private=None if private is None else dict(private),
            audience=None if audience is None else frozenset(audience),
        )


# A chain is None or a pair (item, rest) whose rest is a chain. It is not written as the recursive alias
# ``tuple[Any, "Chain"] | None``: mypyc maps a fixed-length tuple to an unboxed C struct of its items, so it
# unfolds that alias without end and overflows its stack (the compiler dies of SIGSEGV, saying nothing).
Chain = tuple[Any, Any] | None


def chain_items(chain: Chain) -> list[Any]:
    """The items of a persistent chain, oldest first."""
    out: list[Any] = []
    while chain is not None:
        item, chain = chain
        out.append(item)
    out.reverse()
    return out


def chain_from(items: Iterator[Any] | list[Any]) -> Chain:
    """A chain holding ``items`` in order."""
    chain: Chain = None
    for item in items:
        chain = (item, chain)
    return chain
