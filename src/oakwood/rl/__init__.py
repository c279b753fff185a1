"""Reinforcement-learning interop: fixed-size observation tensors and adapters for PettingZoo, Gymnasium and
OpenSpiel. Optional (``pip install 'oakwood[rl]'``); the rules never import it."""
