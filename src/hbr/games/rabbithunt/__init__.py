"""Rabbit Hunt (狡兔三窟, 2Plus, 2009): a hidden-card farm game for 2 to 4 players.

The engine modules (state, engine) are pure and use the standard library only.
"""
