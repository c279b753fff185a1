"""Why an action is illegal: one readable sentence per case (used by ``IllegalActionError``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import (
    GIFT,
    GIVE,
    JOKER_FIELD_VERB,
    JOKER_KEEP_VERB,
    KEEP,
    MULLIGAN,
    PASS,
    PLAY,
    RETURN,
    SWAP,
    TAKE,
    Action,
)
from .cards import BIT, NAMES

if TYPE_CHECKING:
    from .state import BarrellState

_PHASE_OF = {
    PLAY: "play",
    PASS: "play",
    MULLIGAN: "mulligan",
    KEEP: "mulligan",
    SWAP: "swap",
    GIFT: "hearts",
    GIVE: "hearts",
    JOKER_KEEP_VERB: "jokers",
    JOKER_FIELD_VERB: "jokers",
    RETURN: "kh",
    TAKE: "ks",
}
_PHASE_TEXT = {
    "mulligan": "the mulligan before the battle",
    "play": "playing cards",
    "swap": "choosing whom the Jack of Spades trades with",
    "jokers": "deciding a Joker",
    "hearts": "giving hearts away",
    "kh": "the King of Hearts' return",
    "ks": "the King of Spades' pick from Discard",
    "over": "the end of the game",
}


def why_illegal(state: BarrellState, seat: int, action: Any) -> str:
    """A sentence saying why ``action`` is not legal for ``seat`` now."""
    if not isinstance(action, Action):
        return f"{action!r} is not a Barrell action"
    wanted = _PHASE_OF[action.verb]
    if wanted != state.phase:
        return f"'{action}' is not possible now: the game is at {_PHASE_TEXT[state.phase]}"
    card = action.card
    if action.verb == PLAY and not state.hands[seat] & BIT[card]:
        return f"you do not hold {NAMES[card]}"
    if action.verb == MULLIGAN:
        if not state.hands[seat] & BIT[card]:
            return f"you do not hold {NAMES[card]}"
        return "you may set aside at most 3 cards (BR-4)"
    if action.verb in (SWAP, GIFT, GIVE) and action.target == seat:
        return "you must name an opponent, not yourself"
    if action.verb in (SWAP, GIFT, GIVE) and action.target >= state.num_players:
        return f"there is no P{action.target + 1} in this game"
    if action.verb == GIVE:
        if not state.to_give[seat] & BIT[card]:
            return f"{NAMES[card]} is not one of your hearts to give"
        if card in state.card_target:
            return f"you already named a recipient for {NAMES[card]}"
        return "give names a heart per card only under heart_gift=split_per_card"
    if action.verb == GIFT:
        return "under heart_gift=split_per_card name a recipient per card with 'give'"
    if action.verb == RETURN:
        return f"{NAMES[card]} is not in your field"
    if action.verb == TAKE:
        return f"{NAMES[card]} is not in the Discard pile"
    return f"'{action}' is not legal now"
