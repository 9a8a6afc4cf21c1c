"""Game-agnostic drawing for the bot's pictures: canvas, fonts, cards, layout, PNG, cache.

Nothing here imports discord: a picture is PNG bytes plus a text description, testable
alone; the bot attaches it as a file.
"""

from bot.pictures.cache import PictureCache
from bot.pictures.cards import CARD, SMALL_CARD, FaceSpec
from bot.pictures.page import Page, render_page
from bot.pictures.panels import Group, Panel, Slot
from bot.pictures.picture import ATTACHMENT_LIMIT, TARGET_BYTES, Picture, encode_png

__all__ = [
    "ATTACHMENT_LIMIT",
    "CARD",
    "SMALL_CARD",
    "TARGET_BYTES",
    "FaceSpec",
    "Group",
    "Page",
    "Panel",
    "Picture",
    "PictureCache",
    "Slot",
    "encode_png",
    "render_page",
]
