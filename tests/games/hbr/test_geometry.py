from hbr.games.hbr.geometry import Direction, Point, Quadrant, chebyshev


def test_within_n_squares_is_king_distance() -> None:
    assert chebyshev(Point(0, 0), Point(2, 1)) == 2
    assert chebyshev(Point(5, 5), Point(3, 7)) == 2
    assert chebyshev(Point(5, 5), Point(5, 8)) == 3


def test_north_is_negative_y() -> None:
    assert Point(3, 3).step(Direction.NORTH) == Point(3, 2)
    assert Point(3, 3).step(Direction.SOUTHEAST) == Point(4, 4)


def test_quadrants_include_their_edges() -> None:
    hunter = Point(10, 10)
    due_north = Point(10, 8)
    assert Quadrant.NORTHEAST.contains(hunter, due_north)
    assert Quadrant.NORTHWEST.contains(hunter, due_north)
    assert not Quadrant.SOUTHEAST.contains(hunter, due_north)
    due_east = Point(12, 10)
    assert Quadrant.NORTHEAST.contains(hunter, due_east)
    assert Quadrant.SOUTHEAST.contains(hunter, due_east)
    assert not Quadrant.NORTHWEST.contains(hunter, due_east)
    assert Quadrant.SOUTHWEST.contains(hunter, Point(9, 11))
    assert not Quadrant.SOUTHWEST.contains(hunter, Point(11, 11))


def test_spoken_names() -> None:
    assert Direction.NORTHEAST.spoken == "north east"
    assert Direction.WEST.spoken == "west"
    assert Quadrant.SOUTHWEST.word == "southwest"
