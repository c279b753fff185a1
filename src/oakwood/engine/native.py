"""mypyc's class decorator, usable whether or not ``mypy_extensions`` is installed (issue 36).

``mypyc_attr(...)`` only instructs the compiler: the interpreted form runs the same classes with it doing
nothing, so the engine still needs nothing outside the standard library. mypyc recognises the decorator by
its full name, which stays ``mypy_extensions.mypyc_attr`` through this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import IdentityFunction

__all__ = ["mypyc_attr"]

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # not installed (only the compiler needs it): the decorator does nothing

    def mypyc_attr(*attrs: str, **kwattrs: object) -> IdentityFunction:
        """Return the class unchanged."""
        return lambda cls: cls
