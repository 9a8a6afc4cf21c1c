"""What tests and benches both drive the bot with: the Discord stand-in (`standin`), the
world a test plays in, the game drivers and plans, the secrecy audits, a PostgreSQL server
for the tests. Nothing here imports tests/."""
