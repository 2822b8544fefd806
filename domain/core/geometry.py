"""Plane geometry for drawing boards: regions around points, and labels that do not overlap.

`regions` turns a board's places (each a point) into regions, the way a printed map divides
land: each place gets the part of the plane nearer to it than to any other place (its Voronoi
cell), cut down to a disc around it so that lone places stay islands and the sea shows between
continents. Every edge of a region remembers what made it (the other place across it, or the
rim), so a drawing can tell a shared border from a coast. `place_labels` puts each label at the
first of its candidate spots that overlaps nothing placed before it.

Pure arithmetic, deterministic, no dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
RIM = ""
"""The tag of an edge made by the disc or the canvas, not by another place."""


@dataclass(frozen=True)
class Site:
    """A place to draw a region for (`radius`: how far its region may reach), or a blocker
    (`region=False`: it takes its share of the plane, but no region is made for it)."""

    id: str
    x: float
    y: float
    radius: float
    region: bool = True


@dataclass(frozen=True)
class Region:
    """A convex polygon; `tags[k]` is what made the edge from `points[k]` to `points[k+1]` (the
    id of the site across it, or RIM)."""

    id: str
    points: tuple[Point, ...]
    tags: tuple[str, ...]

    def borders(self) -> dict[str, list[tuple[Point, Point]]]:
        """The edges of the region, grouped by what made them."""
        found: dict[str, list[tuple[Point, Point]]] = {}
        n = len(self.points)
        for k in range(n):
            found.setdefault(self.tags[k], []).append((self.points[k], self.points[(k + 1) % n]))
        return found

    def path(self) -> str:
        """SVG path data."""
        if not self.points:
            return ""
        head, *rest = self.points
        return f"M{head[0]:.1f},{head[1]:.1f}" + "".join(f"L{x:.1f},{y:.1f}" for x, y in rest) + "Z"

    def centroid(self) -> Point:
        """The area centroid (the first point for a degenerate polygon)."""
        area = cx = cy = 0.0
        n = len(self.points)
        for k in range(n):
            x0, y0 = self.points[k]
            x1, y1 = self.points[(k + 1) % n]
            cross = x0 * y1 - x1 * y0
            area += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
        if abs(area) < 1e-9:
            return self.points[0] if self.points else (0.0, 0.0)
        return cx / (3 * area), cy / (3 * area)

    def contains(self, point: Point) -> bool:
        """Whether `point` is inside (the polygon is convex and counter-clockwise)."""
        n = len(self.points)
        if n < 3:
            return False
        x, y = point
        for k in range(n):
            x0, y0 = self.points[k]
            x1, y1 = self.points[(k + 1) % n]
            if (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0) < -1e-9:
                return False
        return True


def _disc(x: float, y: float, radius: float, sides: int) -> list[Point]:
    return [
        (
            x + radius * math.cos(2 * math.pi * k / sides),
            y + radius * math.sin(2 * math.pi * k / sides),
        )
        for k in range(sides)
    ]


def _clip(
    points: list[Point], tags: list[str], a: float, b: float, c: float, tag: str
) -> tuple[list[Point], list[str]]:
    """Keep the part where a*x + b*y <= c; the new edge along the line gets `tag`."""
    out_points: list[Point] = []
    out_tags: list[str] = []
    n = len(points)
    for k in range(n):
        p, q = points[k], points[(k + 1) % n]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            out_points.append(p)
            out_tags.append(tags[k])
            if fq > 0:
                t = fp / (fp - fq)
                out_points.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
                out_tags.append(tag)
        elif fq <= 0:
            t = fp / (fp - fq)
            out_points.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
            out_tags.append(tags[k])
    return out_points, out_tags


def regions(
    sites: Sequence[Site],
    width: float,
    height: float,
    *,
    joined: Iterable[frozenset[str]] = (),
    gap: float = 0.0,
    sides: int = 36,
) -> dict[str, Region]:
    """The region of each site with `region=True`: its Voronoi cell among all `sites`, within
    its disc of `radius` and the canvas `width` x `height`. Two regions whose pair is not in
    `joined` stay `gap` apart on each side of their bisector (a channel of 2 * gap shows
    between places that do not border each other); blockers are never kept apart."""
    joined = set(joined)
    ids = {site.id for site in sites if site.region}
    made: dict[str, Region] = {}
    for site in sites:
        if not site.region:
            continue
        points = _disc(site.x, site.y, site.radius, sides)
        tags = [RIM] * len(points)
        for a, b, c in ((-1.0, 0.0, 0.0), (1.0, 0.0, width), (0.0, -1.0, 0.0), (0.0, 1.0, height)):
            points, tags = _clip(points, tags, a, b, c, RIM)
        for other in sites:
            if other.id == site.id:
                continue
            dx, dy = other.x - site.x, other.y - site.y
            if math.hypot(dx, dy) >= 2 * site.radius:
                continue
            # nearer to site than to other: dx*x + dy*y <= (|other|^2 - |site|^2) / 2
            c = (other.x**2 + other.y**2 - site.x**2 - site.y**2) / 2
            if gap and other.id in ids and frozenset((site.id, other.id)) not in joined:
                c -= gap * math.hypot(dx, dy)
            points, tags = _clip(points, tags, dx, dy, c, other.id)
            if not points:
                break
        made[site.id] = Region(site.id, tuple(points), tuple(tags))
    return made


def touching(regions_by_id: Mapping[str, Region], minimum: float = 1.0) -> set[frozenset[str]]:
    """The pairs of regions that share a border at least `minimum` long."""
    pairs: set[frozenset[str]] = set()
    for region in regions_by_id.values():
        for tag, edges in region.borders().items():
            if tag == RIM or tag not in regions_by_id:
                continue
            length = sum(math.dist(p, q) for p, q in edges)
            if length >= minimum:
                pairs.add(frozenset((region.id, tag)))
    return pairs


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle: left, top, width, height."""

    x: float
    y: float
    w: float
    h: float

    def overlaps(self, other: Box) -> bool:
        return (
            self.x < other.x + other.w
            and other.x < self.x + self.w
            and self.y < other.y + other.h
            and other.y < self.y + self.h
        )

    @property
    def middle(self) -> Point:
        return self.x + self.w / 2, self.y + self.h / 2

    def inside(self, width: float, height: float) -> bool:
        return (
            self.x >= 0 and self.y >= 0 and self.x + self.w <= width and self.y + self.h <= height
        )

    def segment_span(self, a: Point, b: Point) -> tuple[float, float] | None:
        """The part (t0, t1 of 0..1) of the segment a-b inside the box, if any
        (Liang-Barsky clipping)."""
        (ax, ay), (bx, by) = a, b
        dx, dy = bx - ax, by - ay
        low, high = 0.0, 1.0
        for p, q in (
            (-dx, ax - self.x),
            (dx, self.x + self.w - ax),
            (-dy, ay - self.y),
            (dy, self.y + self.h - ay),
        ):
            if p == 0:
                if q < 0:
                    return None
                continue
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low >= high:
                return None
        return low, high


@dataclass(frozen=True)
class Label:
    """A label to place: its id, its size, and the spots to try in order (each the top-left
    corner of its box)."""

    id: str
    w: float
    h: float
    spots: tuple[Point, ...]


def place_labels(
    labels: Iterable[Label], obstacles: Iterable[Box], width: float, height: float
) -> dict[str, Box]:
    """Each label at its first spot that stays on the canvas and overlaps neither an obstacle
    nor a label placed before it; a label with no free spot takes the spot that overlaps
    least (so every label is placed, and the overlap is as small as the spots allow)."""
    taken: list[Box] = list(obstacles)
    placed: dict[str, Box] = {}
    for label in labels:
        best: Box | None = None
        best_overlap = math.inf
        for x, y in label.spots:
            box = Box(x, y, label.w, label.h)
            if not box.inside(width, height):
                continue
            overlap = sum(_overlap_area(box, other) for other in taken)
            if overlap < best_overlap:
                best, best_overlap = box, overlap
                if overlap == 0:
                    break
        if best is None:
            x, y = label.spots[0]
            best = Box(
                min(max(x, 0.0), width - label.w), min(max(y, 0.0), height - label.h), label.w,
                label.h,
            )  # fmt: skip
        placed[label.id] = best
        taken.append(best)
    return placed


def free_box(w: float, h: float, spots: Iterable[Point], taken: Sequence[Box]) -> Box | None:
    """The first of `spots` (top-left corners) where a w x h box overlaps nothing `taken`."""
    for x, y in spots:
        box = Box(x, y, w, h)
        if not any(box.overlaps(other) for other in taken):
            return box
    return None


def _overlap_area(a: Box, b: Box) -> float:
    w = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
    h = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
    return w * h if w > 0 and h > 0 else 0.0
