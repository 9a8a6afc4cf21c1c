"""A titled panel of card groups (a player's holder, a screen, the informants...).

Game-agnostic: a game says which cards go face up (with their `FaceSpec`) or face down
(with a label), and the captions; the panel measures itself so that pages can be laid out
with `grid.first_fit` before anything is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.pictures.canvas import Canvas
from bot.pictures.cards import CARD, FaceSpec, Size, draw_back, draw_face
from bot.pictures.colours import RGB, THEME
from bot.pictures.fonts import text_width

PAD = 14
CARD_GAP = 10
GROUP_GAP = 26
TITLE = 17
SUBTITLE = 13
GROUP_LABEL = 12
CAPTION = 13
RING_ROOM = 4
"""Space kept above the cards for the ring around a chosen one."""


@dataclass(frozen=True)
class Slot:
    """One card place: face up when `spec` is given (and `card` names it), else face down
    with `label` on its back. `ring` outlines it (a chosen card); `caption` goes under it."""

    card: str | None = None
    spec: FaceSpec | None = None
    label: str = ""
    caption: str = ""
    ring: RGB | None = None


@dataclass(frozen=True)
class Group:
    """Cards side by side under an optional small label ("Holder", "Screen")."""

    slots: Sequence[Slot]
    label: str = ""


@dataclass(frozen=True)
class Panel:
    """A framed block: title (and a note beside it), subtitle, groups of cards."""

    title: str
    groups: Sequence[Group]
    subtitle: str = ""
    note: str = ""
    highlight: RGB | None = None
    """Frame colour for the panel that matters most (the winner, the viewer)."""
    badge: str = ""
    """Words in a coloured tag after the title ("Winner")."""
    card: Size = CARD
    min_width: float = 0
    _size: tuple[float, float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_size", self._measure())

    @property
    def size(self) -> tuple[float, float]:
        return self._size

    def _cards_width(self) -> float:
        w = self.card[0]
        widths = [max(0, len(g.slots) * (w + CARD_GAP) - CARD_GAP) for g in self.groups]
        return sum(widths) + GROUP_GAP * (len(widths) - 1)

    @property
    def header_height(self) -> float:
        """From the top padding to the cards: panels sharing a row align their cards on the
        tallest one."""
        return self._header_height()

    def _header_height(self) -> float:
        h = TITLE + 8 + RING_ROOM
        if self.subtitle:
            h += SUBTITLE + 6
        if any(g.label for g in self.groups):
            h += GROUP_LABEL + 6
        return h

    def _has_captions(self) -> bool:
        return any(s.caption for g in self.groups for s in g.slots)

    def _measure(self) -> tuple[float, float]:
        title_w = text_width(self.title, TITLE) + (
            text_width(self.badge, 12) + 40 if self.badge else 0
        )
        width = max(self._cards_width(), title_w, self.min_width) + 2 * PAD
        height = PAD + self._header_height() + self.card[1] + PAD
        if self._has_captions():
            height += CAPTION + 8
        return width, height

    def draw(
        self,
        canvas: Canvas,
        xy: tuple[float, float],
        size: tuple[float, float] | None = None,
        header: float | None = None,
    ) -> None:
        """Draw at `xy`, stretched to `size` and with the cards `header` below the top
        padding, if given (so panels sharing a row match)."""
        x, y = xy
        w, h = size or self.size
        frame = self.highlight or THEME.panel_edge
        canvas.rect(
            (x, y, x + w, y + h),
            THEME.panel,
            radius=12,
            outline=frame,
            width=2.5 if self.highlight else 1,
        )
        ty = y + PAD
        title_w = canvas.text(
            (x + PAD, ty),
            self.title,
            TITLE,
            THEME.text,
            bold=True,
            max_width=w - 2 * PAD - (90 if self.badge else 0),
        )
        if self.badge:
            self._draw_badge(canvas, (x + PAD + title_w + 10, ty - 2))
        if self.note:
            canvas.text((x + w - PAD, ty + 3), self.note, SUBTITLE, THEME.muted, anchor="ra")
        ty += TITLE + 8
        if self.subtitle:
            canvas.text((x + PAD, ty), self.subtitle, SUBTITLE, THEME.muted, max_width=w - 2 * PAD)
            ty += SUBTITLE + 6
        ty = y + PAD + (header if header is not None else self._header_height())
        label_y = ty - RING_ROOM - GROUP_LABEL - 6
        cw, ch = self.card
        gx = x + PAD + (w - 2 * PAD - self._cards_width()) / 2
        for i, group in enumerate(self.groups):
            if i:
                divider = gx - GROUP_GAP / 2
                canvas.line([(divider, ty + 8), (divider, ty + ch - 8)], THEME.panel_edge, 1.5)
            if group.label:
                canvas.text((gx, label_y), group.label.upper(), GROUP_LABEL, THEME.accent)
            for slot in group.slots:
                self._draw_slot(canvas, slot, (gx, ty))
                gx += cw + CARD_GAP
            gx += GROUP_GAP - CARD_GAP

    def _draw_slot(self, canvas: Canvas, slot: Slot, xy: tuple[float, float]) -> None:
        cw, ch = self.card
        x, y = xy
        if slot.ring is not None:
            canvas.rect(
                (x - 4, y - 4, x + cw + 4, y + ch + 4),
                None,
                radius=12,
                outline=slot.ring,
                width=2.5,
            )
        if slot.spec is not None and slot.card is not None:
            draw_face(canvas, slot.card, slot.spec, xy, self.card)
        else:
            draw_back(canvas, xy, self.card, slot.label)
        if slot.caption:
            canvas.text(
                (x + cw / 2, y + ch + 8),
                slot.caption,
                CAPTION,
                slot.ring or THEME.muted,
                anchor="ma",
                max_width=cw + CARD_GAP,
                bold=slot.ring is not None,
            )

    def _draw_badge(self, canvas: Canvas, xy: tuple[float, float]) -> None:
        x, y = xy
        colour = self.highlight or THEME.accent
        w = text_width(self.badge, 12) + 30
        canvas.rect((x, y, x + w, y + 22), colour, radius=11)
        canvas.glyph("star", (x + 5, y + 3, x + 21, y + 19), THEME.background, colour)
        canvas.text((x + 23, y + 11), self.badge, 12, THEME.background, anchor="lm", bold=True)
