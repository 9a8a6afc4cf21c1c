"""Pure rules engines for the deduction games: no Discord, no I/O, no clock."""
