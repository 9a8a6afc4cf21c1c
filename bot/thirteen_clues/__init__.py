"""13 Clues on the shell: its plug, rendering, components and casebook."""
