"""Spyhunting (Capture the Spy, by Chad M. Raeside): a hidden-plan chase on the points of a board.

The engine modules (state, engine) are pure and use the standard library only.
"""
