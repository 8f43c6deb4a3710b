"""Pictures of a forest for sighted helpers and for tactile printing (SVG).

``review_svg`` shows the whole truth of a played game: obstacles, the hole and the
paths of the hunter, bear and rabbit with turn numbers. ``blank_map_svg`` is patch
1.2's blank map: the obstacles only, no spawn points and no compass, in bold
shapes that survive swell-paper printing.
"""

from __future__ import annotations

from xml.etree import ElementTree as ET

from hbr.games.hbr.geometry import Point
from hbr.games.hbr.state import Field, State

CELL = 36
MARGIN = 40
COLOURS = {"hunter": "#1f5fbf", "bear": "#7a3b0c", "rabbit": "#2e8b57"}


def _canvas(field: Field, title: str, extra_height: int = 0) -> ET.Element:
    width = field.width * CELL + 2 * MARGIN
    height = field.height * CELL + 2 * MARGIN + extra_height
    svg = ET.Element(
        "svg",
        {"xmlns": "http://www.w3.org/2000/svg", "width": str(width), "height": str(height),
         "viewBox": f"0 0 {width} {height}", "role": "img"},
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "rect", x="0", y="0", width=str(width), height=str(height), fill="white")
    grid = ET.SubElement(svg, "g", id="grid", stroke="#bbbbbb", fill="none")
    for x in range(field.width):
        for y in range(field.height):
            ET.SubElement(grid, "rect", x=str(MARGIN + x * CELL), y=str(MARGIN + y * CELL), width=str(CELL), height=str(CELL))
    return svg


def _centre(p: Point) -> tuple[float, float]:
    return MARGIN + (p.x + 0.5) * CELL, MARGIN + (p.y + 0.5) * CELL


def _obstacles(svg: ET.Element, field: Field) -> None:
    group = ET.SubElement(svg, "g", id="obstacles", fill="#222222")
    for p in sorted(field.obstacles):
        ET.SubElement(
            group, "rect", x=str(MARGIN + p.x * CELL + 3), y=str(MARGIN + p.y * CELL + 3),
            width=str(CELL - 6), height=str(CELL - 6),
        ).set("data-square", f"{p.x},{p.y}")


def blank_map_svg(field: Field) -> str:
    svg = _canvas(field, "Blank map: obstacles only")
    _obstacles(svg, field)
    return ET.tostring(svg, encoding="unicode")


#: Where each animal's turn numbers go around its mark: offset x, offset y, text anchor.
LABEL_PLACE = {"hunter": (5, -5, "start"), "bear": (5, 13, "start"), "rabbit": (-5, -5, "end")}


def review_svg(trail: list[State], seed: object = None) -> str:
    """``trail``: the state before the first turn, then after each turn."""
    field = trail[0].field
    svg = _canvas(field, f"Hunter Bear Rabbit, forest {seed}: review", extra_height=30)
    _obstacles(svg, field)
    hx, hy = _centre(field.hole)
    ET.SubElement(svg, "circle", {"id": "hole", "cx": str(hx), "cy": str(hy), "r": str(CELL * 0.38),
                                  "fill": "none", "stroke": "black", "stroke-width": "4"})
    for name in ("hunter", "bear", "rabbit"):
        points = [getattr(s, name) for s in trail]
        group = ET.SubElement(svg, "g", id=f"{name}-path", stroke=COLOURS[name], fill=COLOURS[name])
        ET.SubElement(group, "polyline", {
            "fill": "none", "points": " ".join(f"{x:.0f},{y:.0f}" for x, y in map(_centre, points)),
            "stroke-width": "3", "stroke-opacity": "0.7",
        })
        # one mark and one label per cell ("3, 4, 7" where it stood more than once), and each
        # animal's label on its own side of the mark, so that no two numbers are drawn over each other
        turns: dict[Point, list[int]] = {}
        for turn, p in enumerate(points):
            turns.setdefault(p, []).append(turn)
        dx, dy, anchor = LABEL_PLACE[name]
        for p, when in turns.items():
            x, y = _centre(p)
            ET.SubElement(group, "circle", cx=f"{x:.0f}", cy=f"{y:.0f}", r="4")
            label = ET.SubElement(group, "text", {"x": f"{x + dx:.0f}", "y": f"{y + dy:.0f}", "stroke": "none",
                                                  "font-size": "11", "font-family": "sans-serif",
                                                  "text-anchor": anchor})
            label.text = ", ".join(map(str, when))
    legend = ET.SubElement(svg, "g", {"id": "legend", "font-size": "14", "font-family": "sans-serif"})
    y = MARGIN + field.height * CELL + 25
    for i, (name, colour) in enumerate([*COLOURS.items(), ("obstacle", "#222222")]):
        ET.SubElement(legend, "rect", x=str(MARGIN + i * 110), y=str(y - 11), width="12", height="12", fill=colour)
        ET.SubElement(legend, "text", x=str(MARGIN + i * 110 + 18), y=str(y)).text = name
    ET.SubElement(legend, "text", x=str(MARGIN + 450), y=str(y)).text = "circle: rabbit hole; numbers: turns"
    return ET.tostring(svg, encoding="unicode")
