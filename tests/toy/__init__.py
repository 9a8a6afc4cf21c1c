"""A toy second game, written inside the tests: the proof that the shell is game-agnostic."""
