"""Each game's observation encoder (``encoder(game, players) -> Encoder``)."""
