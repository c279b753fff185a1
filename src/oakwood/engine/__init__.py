"""The game-agnostic kernel: states, decisions, actions and their codec, randomness, events, errors."""

from __future__ import annotations

from .actions import ActionCodec
from .agent import Agent, Choice, PlayerView
from .errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvariantError,
    NotYourTurnError,
    OakwoodError,
    UnknownGameError,
)
from .events import Event
from .game import Game
from .naming import name_seats
from .options import OptionInfo, Options, option
from .playout import random_playout
from .registry import game_class, game_names, load, register
from .replay import Replay
from .rng import Rng
from .state import Decision, State

__all__ = [
    "ActionCodec",
    "Agent",
    "Choice",
    "Decision",
    "Event",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidNotationError",
    "InvalidOptionError",
    "InvariantError",
    "NotYourTurnError",
    "OakwoodError",
    "OptionInfo",
    "Options",
    "PlayerView",
    "Replay",
    "Rng",
    "State",
    "UnknownGameError",
    "game_class",
    "game_names",
    "load",
    "name_seats",
    "option",
    "random_playout",
    "register",
]
