"""Clue: Mystery Beyond the Mansion on the shell: the plug, its rendering and its components."""
