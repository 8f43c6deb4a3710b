"""Jumpers (Прыгуны): a race of frogs, cats and hares across a board of hexagons, stacking, never capturing.

The engine modules (state, engine) are pure and use the standard library only.
"""
