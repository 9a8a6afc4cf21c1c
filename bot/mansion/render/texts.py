"""Longer texts, one message each (≤ 2000 characters): the public log and the rules."""

from __future__ import annotations

from bot.i18n import N_, tr, trn
from bot.mansion.render.labels import MESSAGE_LIMIT, Voice, action_name, clip
from bot.mansion.render.lines import voice
from bot.mansion.words import card_name
from bot.messages import DESCRIPTION_LIMIT
from engine.mansion import observations as obs
from engine.mansion.views import PublicView

HOW = {"solved": N_("solved by"), "escaped": N_("the fugitive escaped:"),
       "unsolved": N_("nobody solved it"), "abandoned": N_("ended early")}


def log_text(view: PublicView, lang: str) -> str:
    """`/mansion log`: every public fact of this game, turn by turn (the latest kept when
    long), after one line per finished game of the series. Public facts only."""
    v = voice(view, lang=lang)
    head = [tr(lang, "📜 **Case log** — game {round}, turn {turn}", round=view.round,
               turn=view.turn_number)]
    for r in view.rounds:
        who = f" {v.plain(r.winner)}" if r.winner is not None and r.how != "unsolved" else ""
        head.append(tr(lang, "🏁 Game {round}: {how}", round=r.round, how=tr(lang, HOW[r.how]))
                    + who)
    turn = 0
    lines: list[str] = []
    for entry in view.observations:
        if isinstance(entry, obs.TurnSeen):
            turn = entry.turn_number
            continue
        text = _entry(entry, v)
        if text:
            lines.append(f"`T{turn:>2}` {text}" if turn else text)
    if not lines:
        lines = [tr(lang, "Nothing has happened yet.")]
    fixed = "\n".join(head)
    budget = MESSAGE_LIMIT - len(fixed) - 1
    kept: list[str] = []
    used = 0
    reserve = 40
    for line in reversed(lines):
        if used + len(line) + 1 + reserve > budget:
            break
        kept.insert(0, line)
        used += len(line) + 1
    if len(kept) < len(lines):
        omitted = len(lines) - len(kept)
        kept.insert(0, trn(lang, "… {n} earlier entry omitted", "… {n} earlier entries omitted",
                           omitted))
    return clip("\n".join([fixed, *kept]), MESSAGE_LIMIT)


def _entry(entry: obs.Observation, v: Voice) -> str | None:
    lang = v.lang
    match entry:
        case obs.SwapSeen():
            took, gave = card_name(lang, entry.took), card_name(lang, entry.gave)
            moved = entry.card == "suggest_present"
            if entry.other is None:
                return (tr(lang, "{seat} moved with the tray: took {took}, gave {gave}",
                           seat=v.plain(entry.seat), took=took, gave=gave) if moved else
                        tr(lang, "{seat} swapped with the tray: took {took}, gave {gave}",
                           seat=v.plain(entry.seat), took=took, gave=gave))
            return (tr(lang, "{seat} moved with {other}: took {took}, gave {gave}",
                       seat=v.plain(entry.seat), other=v.plain(entry.other), took=took,
                       gave=gave) if moved else
                    tr(lang, "{seat} swapped with {other}: took {took}, gave {gave}",
                       seat=v.plain(entry.seat), other=v.plain(entry.other), took=took,
                       gave=gave))
        case obs.SuggestionSeen():
            named = " · ".join(card_name(lang, c) for c in entry.named.cards())
            parts = [f"{v.plain(entry.seat)} 💬 {named}"]
            if entry.passed:
                parts.append(tr(lang, "passed: {seats}",
                                seats=", ".join(v.plain(s) for s in entry.passed)))
            if entry.refuter is None:
                parts.append(tr(lang, "nobody disproved"))
            elif entry.pending:
                parts.append(tr(lang, "{seat} is choosing a card", seat=v.plain(entry.refuter)))
            else:
                parts.append(tr(lang, "{seat} showed a card", seat=v.plain(entry.refuter)))
            if entry.burned:
                parts.append(tr(lang, "🔥 burned {card}", card=action_name(lang, entry.burned)))
            return " — ".join(parts)
        case obs.SnoopSeen():
            return tr(lang, "{seat} 👀 snooped {target}", seat=v.plain(entry.seat),
                      target=v.plain(entry.target))
        case obs.AllSnoopSeen():
            return f"{v.plain(entry.seat)} 🔄 {action_name(lang, f'all_snoop_{entry.direction}')}"
        case obs.SleuthSeen():
            answers = []
            for a in entry.answers:
                what = (tr(lang, "{seat} choosing") if a.showed is None
                        else tr(lang, "{seat} showed") if a.showed else tr(lang, "{seat} none"))
                answers.append(what.format(seat=v.plain(a.seat)))
            return (f"{v.plain(entry.seat)} 🔎 {action_name(lang, entry.card)} — "
                    + ", ".join(answers))
        case obs.TipSeen():
            return (tr(lang, "{seat} 🤫 Private Tip to {target} (answered)",
                       seat=v.plain(entry.seat), target=v.plain(entry.target))
                    if entry.answered else
                    tr(lang, "{seat} 🤫 Private Tip to {target} (waiting)",
                       seat=v.plain(entry.seat), target=v.plain(entry.target)))
        case obs.AccusationSeen():
            if entry.correct and entry.named is not None:
                named = " · ".join(card_name(lang, c) for c in entry.named.cards())
                return tr(lang, "{seat} ⚖️ {named} — right", seat=v.plain(entry.seat),
                          named=named)
            return tr(lang, "{seat} ⚖️ accused — wrong", seat=v.plain(entry.seat))
        case obs.ReshuffleSeen():
            return tr(lang, "♻️ discard reshuffled into a draw pile of {size}", size=entry.size)
        case obs.SolutionChosenSeen():
            return tr(lang, "🦹 {seat} chose the solution", seat=v.plain(entry.seat))
        case _:
            return None


RULES = (
    N_("🕵️ **Clue: Mystery Beyond the Mansion** (3–5 players)"),
    N_("Mr. Boddy was murdered; the culprit fled in a vehicle to a destination. Be the first "
       "to name the hidden **suspect**, **vehicle** and **destination**."),
    N_("**Setup**: one card of each kind is hidden; the other 18 Clue cards are dealt. Each "
       "player gets one Action card and a destination marker (where they are); the other "
       "markers lie by the tray. Markers are public."),
    N_("**Your turn** (`/mansion turn` or **My turn**): draw an Action card, play one of your "
       "two, then accuse or end your turn."),
    N_("• 💬 **Suggestion from ANY destination**: take any marker (swapping with its holder or "
       "the tray), then suggest a suspect and vehicle from there."),
    N_("• 🏠 **Suggestion from PRESENT destination**: suggest from where you are — or swap your "
       "marker for another instead, without a suggestion."),
    N_("• A suggestion is disproved by the first player on your left (clockwise) holding one "
       "of the three: they choose one card to show you, in secret (asked even when only one "
       "fits, so nobody else learns how many they hold)."),
    N_("• 👀 **Snoop**: look at one face-down card of an opponent. 🔄 **All Snoop**: everyone "
       "looks at one card of a neighbour's hand."),
    N_("• 🔎 **Super Sleuth**: every opponent shows you one card with the feature, if any."),
    N_("• 🤫 **Private Tip**: an opponent secretly returns one card (or all) of the kind asked."),
    N_("**Accusation** (once per game, `/mansion accuse`): right wins; wrong means no more "
       "turns, but you still answer. If everyone accuses wrongly, nobody wins."),
)
"""The rules summary's lines every table shows, before those of its variant and series."""


def rules_text(lang: str, variant: str = "standard", series: int = 1) -> str:
    """A summary of the rules of this table (an embed's description), in `lang`."""
    fugitive = variant in ("one-against-all", "one_against_all")
    lines = [tr(lang, text) for text in RULES]
    if fugitive:
        lines.append(tr(
            lang, "**One Against All**: a fugitive (drawn at random) is the dealer, chooses the "
                  "solution and plays no Action cards; the player on their left goes first. "
                  "Detectives disprove first; when the fugitive disproves, the top Action card "
                  "burns. The fugitive escapes when a detective must draw from an empty pile, or "
                  "when every detective has accused wrongly."))
    else:
        lines.append(tr(lang, "**Empty draw pile**: the discard pile is shuffled into a new one."))
    if series > 1:
        lines.append(
            tr(lang, "**Series**: the fugitive (and dealer) passes left each game; the first to "
                     "solve {series} crimes (right accusations; an escape solves none) is the "
                     "**Master Detective**.", series=series) if fugitive else
            tr(lang, "**Series**: the dealer passes left each game; the first to solve {series} "
                     "crimes (right accusations; an escape solves none) is the **Master "
                     "Detective**.", series=series))
    lines.append(tr(lang, "Prompts for you (show a card, pick a card, answer a tip) come by DM "
                          "with buttons; `/mansion hand` shows them too."))
    return clip("\n".join(lines), DESCRIPTION_LIMIT)
