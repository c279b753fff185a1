"""The ``oakwood`` command: play, simulate, rules, games (Typer + Rich), generic over the engine contract."""
