"""A toy game that proves the seam: a package beside the real games, found by looking,
played through the unchanged shell (tests/test_games.py puts it on hbr.games' path)."""
