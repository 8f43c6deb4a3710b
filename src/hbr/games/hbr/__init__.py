"""Hunter Bear Rabbit: the rules engine, its command grammar, the Observer and the bots.

The engine modules (geometry, state, commands, events, pathing, engine, mapgen)
are pure and use the standard library only.
"""
