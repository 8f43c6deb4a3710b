"""Hunter Bear Rabbit: a game of blind survival, played by voice."""

__version__ = "0.1.0"
