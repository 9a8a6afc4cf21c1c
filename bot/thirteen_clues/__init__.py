"""13 Clues on Discord: the game adapter for the table service and its components."""
