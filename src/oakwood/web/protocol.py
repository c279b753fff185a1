"""What a browser may send over a table's WebSocket, checked by msgspec before anything reads it.

Every message is one JSON object tagged by ``type`` (see ``docs/web.md``). Anything else — not JSON, an
unknown type, a missing or mistyped field, an extra field, more than :data:`MAX_MESSAGE_BYTES` — is refused
with a :class:`ProtocolError` naming what was wrong, and nothing at the table changes.
"""

from __future__ import annotations

from typing import Any

import msgspec

#: The largest message a client may send: the biggest real one (an ``act``) is under 60 bytes.
MAX_MESSAGE_BYTES = 4096


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    """The first message: the seat's secret token, or None to watch as a spectator."""

    token: str | None = None


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    """Play the action with codec index ``action``, in reply to the update numbered ``seq``."""

    seq: int
    action: int


class Undo(msgspec.Struct, tag="undo", forbid_unknown_fields=True):
    """Take back this seat's last move, in reply to the update numbered ``seq``."""

    seq: int


class Back(msgspec.Struct, tag="back", forbid_unknown_fields=True):
    """The player is back: the bot covering the seat stops."""


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    """Keep-alive; answered by ``pong``."""


ClientMessage = Hello | Act | Undo | Back | Ping

_decoder = msgspec.json.Decoder(ClientMessage)


class ProtocolError(Exception):
    """A message the server cannot accept: ``code`` for the client (here ``malformed`` or ``too_large``; a
    table's refusals are the subclass :class:`~oakwood.web.table.TableError`) and a sentence saying what
    was wrong."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def decode(data: str | bytes) -> ClientMessage:
    """The client message in ``data``; :class:`ProtocolError` if it is too large or not a valid message."""
    raw = data.encode() if isinstance(data, str) else data
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes, not {len(raw)}")
    try:
        return _decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise ProtocolError("malformed", f"not a valid message: {exc}") from None
    except msgspec.DecodeError:
        raise ProtocolError("malformed", "not a JSON message") from None
    except RecursionError:
        raise too_deep() from None


def too_deep() -> ProtocolError:
    """The refusal of JSON nested deeper than the decoder goes.

    msgspec decodes nested arrays and objects recursively and raises :class:`RecursionError` (not a
    ``DecodeError``) at about the interpreter's recursion limit; a few kilobytes of ``[`` reach it. Whatever
    a client sends is an ordinary refusal, never a server error with a traceback in the log."""
    return ProtocolError("malformed", "the JSON is nested too deeply")


def error(code: str, message: str) -> dict[str, Any]:
    """The ``error`` message sent to the one client whose message was refused."""
    return {"type": "error", "code": code, "message": message}


def encode(message: dict[str, Any]) -> str:
    """A server message as JSON text."""
    return msgspec.json.encode(message).decode()
