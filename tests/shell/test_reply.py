"""A stored answer may be rendered from the change's result (`Reply.then`)."""

from __future__ import annotations

from bot.messages import Outgoing
from bot.tables import Reply


def test_an_answer_without_then_is_kept_as_given() -> None:
    reply = Reply(1, "tok", Outgoing(content="done"))
    reply.settle(Outgoing(content="any state"), ["event"])
    assert reply.letter(0).body.content == "done"


def test_then_renders_the_answer_from_the_result() -> None:
    reply = Reply(1, "tok", Outgoing(content="placeholder"),
                  then=lambda state, events: Outgoing(
                      content=f"{dict(state)['content']}:{len(events)}"))
    reply.settle(Outgoing(content="new-state"), ["a", "b"])
    letter = reply.letter(2)
    assert letter.body.content == "new-state:2" and letter.follows == 2 and letter.to == "i:1"


def test_a_reply_says_the_news_is_on_its_way_in_its_members_language() -> None:
    french = Reply(1, "token", Outgoing(content="✅"), lang="fr").letter(2)
    assert french.pending == "Les nouvelles de la table arrivent."
    assert french.with_note(french.pending).body.content == \
        "✅\n-# Les nouvelles de la table arrivent."
    assert Reply(1, "token", Outgoing(content="✅")).letter(2).pending == \
        "The table's news is on its way."
