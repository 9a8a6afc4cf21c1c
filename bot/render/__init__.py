"""Pure rendering: engine events and views turned into Discord text and embeds (no I/O)."""
