"""Longer texts: the question log (one message, ≤ 2000) and the rules summary (an embed's
description, ≤ 4096)."""

from __future__ import annotations

from collections import Counter

from bot.i18n import tr, trn
from bot.messages import DESCRIPTION_LIMIT
from bot.thirteen_clues import words
from bot.thirteen_clues.render.labels import MESSAGE_LIMIT, Voice, clip, range_label
from bot.thirteen_clues.words import subject_label
from engine.thirteen_clues.cards import REMOVED_SUITS, Category, SubCategory
from engine.thirteen_clues.state import GLASSES_IN_BOX, LETTERS, Edition, Question
from engine.thirteen_clues.views import PublicView


def question_log_text(lang: str, view: PublicView) -> str:
    """`/13clues log`: every public question numbered (Top Secret ones as a trace only, until
    the end reveals them), then consultations and accusations per player. Public facts only,
    even when given a PlayerView. Keeps the latest questions when long."""
    v = Voice.of(lang, view)
    questions = view.reveal.questions if view.reveal is not None else view.questions
    head = tr(
        lang, "📜 **Case log** — {questions}, {consultations}, {accusations}",
        questions=trn(lang, "{n} question", "{n} questions", len(questions)),
        consultations=trn(lang, "{n} consultation", "{n} consultations",
                          len(view.consultations)),
        accusations=trn(lang, "{n} accusation", "{n} accusations", len(view.accusations)),
    )
    tail: list[str] = []
    if view.consultations:
        per_seat: dict[int, Counter[str]] = {}
        for c in view.consultations:
            per_seat.setdefault(c.seat, Counter())[c.letter] += 1
        parts = [
            f"{v.who(seat)} {', '.join(_times(letter, n) for letter, n in sorted(letters.items()))}"
            for seat, letters in sorted(per_seat.items())
        ]
        tail.append(tr(lang, "🗂️ **Informant consulted**: {parts}", parts=" · ".join(parts)))
    if view.accusations:
        wrong = Counter(seat for seat, ok in view.accusations if not ok)
        parts = [f"{v.who(seat)} {_times('❌', n)}" for seat, n in sorted(wrong.items())]
        parts += [f"{v.who(seat)} ✅" for seat, ok in view.accusations if ok]
        tail.append(tr(lang, "⚖️ **Accusations**: {parts}", parts=" · ".join(parts)))

    lines = [_log_line(i, q, v) for i, q in enumerate(questions, 1)]
    if not lines:
        lines = [tr(lang, "No questions yet.")]
    fixed = "\n".join([head, *tail])
    budget = MESSAGE_LIMIT - len(fixed) - 1
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        reserve = len(_omitted(lang, len(lines))) + 1
        if used + len(line) + 1 + (reserve if len(kept) + 1 < len(lines) else 0) > budget:
            break
        kept.insert(0, line)
        used += len(line) + 1
    if len(kept) < len(lines):
        kept.insert(0, _omitted(lang, len(lines) - len(kept)))
    return clip("\n".join([head, *kept, *tail]), MESSAGE_LIMIT)


def _omitted(lang: str, n: int) -> str:
    return trn(lang, "… {n} earlier question omitted", "… {n} earlier questions omitted", n)


def _log_line(number: int, q: Question, v: Voice) -> str:
    pair = f"{v.who(q.asker)} → {v.who(q.witness)}"
    if q.top_secret and q.answer < 0:
        return f"`{number}.` 🤫 {pair} " + tr(v.lang, "(Top Secret)")
    subject = subject_label(v.lang, q.subject)
    if q.side == "left":
        subject = tr(v.lang, "{subject}, {witness}'s left card", subject=subject,
                     witness=v.plain(q.witness))
    elif q.side == "right":
        subject = tr(v.lang, "{subject}, {witness}'s right card", subject=subject,
                     witness=v.plain(q.witness))
    secret = "🤫 " if q.top_secret else ""
    return f"`{number}.` {secret}{pair}: {subject} — **{q.answer}**"


def _times(label: str, n: int) -> str:
    return label if n == 1 else f"{label}×{n}"


_GLASSES = GLASSES_IN_BOX
_INFORMANTS = {2: 8, 3: 6, 4: 4, 5: 2, 6: 0}


def rules_text(lang: str, edition: Edition, players: int | None = None,
               top_secret: bool = False) -> str:
    """A summary of this table's rules (an embed's description), in `lang`: edition, two-player
    differences when `players` is 2, the Top Secret variant when on."""
    first = edition == "2016"
    two = players == 2
    title = (trn(lang, "📘 **13 Clues — {edition} rules**, {n} player",
                 "📘 **13 Clues — {edition} rules**, {n} players", players, edition=edition)
             if players else tr(lang, "📘 **13 Clues — {edition} rules**", edition=edition))
    lines = [
        title,
        tr(lang, "**Goal**: find the 3 cards (1 Person, 1 Location, 1 Weapon) on your own card "
                 "holder. You see every other holder, never your own."),
    ]
    if players:
        letters = range_label(lang, list(LETTERS[: _INFORMANTS[players]]))
        informant = (tr(lang, "informants {letters}", letters=letters) if _INFORMANTS[players]
                     else tr(lang, "no informant"))
        removed = ", ".join(words.subject_label(lang, s).split(" ", 1)[1]
                            for s in REMOVED_SUITS[players]) or tr(lang, "none")
        lines.append(tr(lang, "**Setup**: suits removed: {removed}; {informant}.",
                        removed=removed, informant=informant))
    lines.append(tr(
        lang, "**Pass**: from your 5 cards, choose 1 Person, 1 Location, 1 Weapon for the holder "
              "of the player on your left (`/13clues pass`); the other 2 stay behind your screen."
    ))
    if two:
        lines.append(tr(lang, "**Turn**: no glasses; one action per turn."))
    else:
        lines.append(tr(
            lang, "**Turn**: with no 🔎 glass, take one from the supply ({glasses} in the box; if "
                  "the supply is empty, `/13clues take` one from a player). Spend each glass on "
                  "one action.", glasses=_GLASSES.get(edition, 8)))
    subs = [words.subject_label(lang, s) for s in SubCategory]
    if first:
        subjects = tr(lang, "one suit, one sub-category ({subs}) or one category ({categories})",
                      subs=", ".join(subs),
                      categories=", ".join(words.subject_label(lang, c) for c in Category))
    else:
        subjects = tr(lang, "one suit or one sub-category ({subs})", subs=", ".join(subs))
    if two:
        lines.append(tr(
            lang, "❓ **Ask** the other player (`/13clues ask`) how many cards of {subjects} they "
                  "see on your holder plus their left *or* right screen card (you name the "
                  "side). The answer is public.", subjects=subjects))
    else:
        lines.append(tr(
            lang, "❓ **Ask** a witness (`/13clues ask`) how many cards of {subjects} they see "
                  "(every holder but their own, plus their screen). The glass goes to the "
                  "witness; the answer is public.", subjects=subjects))
    if players != 6:
        lines.append(tr(
            lang, "🕵️ **Consult** the Secret Informant (`/13clues informant`): look at one "
                  "face-down card; the table sees the letter only."))
    accuse = tr(lang, "⚖️ **Accuse** (`/13clues accuse`) 1 Person, 1 Location, 1 Weapon: right "
                      "wins at once; wrong never eliminates you.")
    if two:  # either rule set (the reference's two-player rules)
        wrong = tr(lang, "Wrong ends your turn. You cannot name a card you can see.")
    elif first:
        wrong = tr(lang, "Wrong: your turn continues if you still hold glasses; any cards may "
                         "be named.")
    else:
        wrong = tr(lang, "Wrong ends your turn and your glasses go to the supply. You cannot "
                         "name a card you can see.")
    lines.append(f"{accuse} {wrong}")
    if not two:
        lines.append(
            tr(lang, "🔎 A glass spent on the informant or an accusation goes to the player "
                     "with the fewest (ties: first clockwise).") if first else
            tr(lang, "🔎 A glass spent on the informant or an accusation goes to a player "
                     "holding none (first clockwise), else the supply."))
    if top_secret and players is None:  # a lobby (or a finished table): no count to go by
        lines.append(tr(
            lang, "🤫 **Top Secret** (3–6 players: a table of two plays without it): once per "
                  "game, ask with `top_secret: True`: the table learns only who asked whom; the "
                  "answer goes to you (and the witness)."))
    elif top_secret and not two:
        lines.append(tr(
            lang, "🤫 **Top Secret**: once per game, ask with `top_secret: True`: the table "
                  "learns only who asked whom; the answer goes to you (and the witness)."))
    lines.append(tr(lang, "`/13clues hand` shows your secrets · `/13clues log` every answer."))
    return clip("\n".join(lines), DESCRIPTION_LIMIT)
