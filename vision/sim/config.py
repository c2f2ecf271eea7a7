"""The throw simulator's parts: the drawn dice's colours, the surfaces, the configuration of a
game (`SimConfig`, `unkind`), the next throw of live play (`ThrowPlan`), and what a frame shows
(`SimDie`, `Hand`, `Frame`). `zonkcam.vision.sim.simulator` puts them together."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

# BGR body colour and pip colour of the drawn dice; names follow the recognizer's default set.
PALETTE: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "white": ((232, 234, 236), (25, 25, 25)),
    "red": ((45, 40, 190), (240, 240, 240)),
    "green": ((70, 150, 30), (240, 240, 240)),
    "blue": ((170, 80, 25), (240, 240, 240)),
    "black": ((32, 32, 32), (235, 235, 235)),
    "yellow": ((40, 205, 235), (25, 25, 25)),
}
# (region surface, surroundings) in BGR for each surface kind.
SURFACES = {
    "mat": ((52, 92, 38), (70, 105, 150)),  # green felt mat on a mid-brown wooden table
    "tray": ((95, 52, 30), (60, 95, 135)),  # navy felt tray on wood; the rim is darker wood
    # a dark tray (issue 34): near-black floor; round it a bright table or a dark one
    "dark": ((40, 38, 36), (150, 172, 196)),
}
DARK_SURROUND = (34, 32, 30)  # the dark table a dark tray may sit on (a sleeve vanishes on it)
DARK_RIMS = ((4, 4, 5), (70, 70, 76))  # a black wall, or one whose top catches the lamp
WALL_STRIP = 0.9  # die sides: the strip along a dark tray's wall that its wall shades
WALL_SHADE = 0.6  # of the floor's light, at the wall
PIPS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
SKIN = (120, 150, 205)
# Real faces are cut from photos of dice at least this many times the simulated die's size.
FACE_OVERSIZE = 1.5
SPECIALS = ("off_table", "cocked", "stacked")


@dataclass(frozen=True, slots=True)
class SimConfig:
    seed: int = 0
    throws: int = 10
    dice: int = 6
    width: int = 640
    height: int = 480
    fps: float = 30.0
    die_px: int = 34  # die side in pixels
    surface: str = "random"  # mat, tray, or random per seed
    crops: str | None = None  # a rune55 folder: use its real die faces instead of drawn ones
    dice_style: str = "pips"  # or "star-logo": a star for the one, a logo for the six (synthetic.py)
    # Chances per throw of the special cases (at most one special throw case per throw).
    p_off_table: float = 0.12
    p_cocked: float = 0.08
    p_stacked: float = 0.08
    p_nudge: float = 0.12  # a kept die nudged while dice are picked up
    p_disturbance: float = 0.35  # a hover, light change, passing shadow or table nudge
    p_no_pause: float = 0.2  # picked up and thrown in one go, no settle in between
    # The simulated player: (values thrown, state) -> (indexes of those dice to set aside, new
    # state), or None to pick every die up (a new turn). State is 0 at a turn's start. Without
    # one, a random non-empty part of the throw is kept.
    keep_policy: Callable[[list[int], object], tuple[list[int], object] | None] | None = None
    # A real table's unkindness (issue 34), all off by default (`unkind` turns them on); off,
    # they draw nothing from the seed's generator, so earlier seeds script what they did.
    sleeve: bool = False  # arms in sleeves of the surround's colour: no arm joins a hand to
    # the frame's edge in the picture
    p_hold: float = 0.0  # after a pick-up: the hand holds the dice in view 1-3 s, shaking
    p_knock: float = 0.0  # a thrown die knocks a kept die 0.1-0.5 of a side and turns it
    p_wall: float = 0.0  # a thrown die comes to rest flat against the tray's wall


def unkind(config: SimConfig, dark: bool = True) -> SimConfig:
    """`config` as unkind as a real table: a dark tray (with `dark`), sleeves, holds after
    pick-ups, knocks and dice against the wall."""
    return replace(config, surface="dark" if dark else config.surface, sleeve=True,
                   p_hold=0.6, p_knock=0.3, p_wall=0.2)


@dataclass(frozen=True, slots=True)
class ThrowPlan:
    """The next throw of live play (`Simulation.extend`), decided once the last one is played."""

    keep: tuple[int, ...] = ()  # indexes into `last_thrown` set aside beside the dice kept before;
    # the other dice of the last throw are picked up and thrown again
    fresh: bool = False  # pick every die up (a new turn, hot dice) and throw the whole set
    special: str | None = None  # off_table, cocked or stacked: the throw goes wrong this way
    dice: int | None = None  # a fresh throw: the set's size (default: as before)
    colors: tuple[str, ...] | None = None  # a fresh throw: the set's colours (PALETTE names), one
    # per die; default: as before (at first, a colour drawn per die)


@dataclass(slots=True)
class SimDie:
    value: int
    color: str | None
    x: float
    y: float
    angle: float
    status: str = "ok"  # ok, cocked, stacked, off_table, and "under" for the die below a stack
    scale: float = 1.0
    side: int = 0  # cocked: the face value seen on the leaning side
    crop: int = 0  # index of the rune55 crop used for this face

    def truth(self) -> dict:
        return {"value": None if self.status == "cocked" else self.value, "color": self.color,
                "status": self.status}


@dataclass(slots=True)
class Hand:
    edge: tuple[float, float]
    x: float
    y: float


@dataclass(slots=True)
class Frame:
    """What one frame shows."""

    dice: list[SimDie]
    hands: list[Hand] = field(default_factory=list)
    gain: float = 1.0
    shadow: tuple[float, float] | None = None  # centre of a large passing shadow
    offset: tuple[int, int] = (0, 0)  # table nudges so far
