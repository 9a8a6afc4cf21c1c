"""Discord's payload limits, checked the way Discord checks them (400, code 50035).

Each check returns a list of (field path, message); an empty list means Discord would accept.
"""

from __future__ import annotations

import mimetypes
import re
from typing import Any

from .records import COMPONENTS_V2, EPHEMERAL, JSON

Problem = tuple[str, str]

SELECT_TYPES = (3, 5, 6, 7, 8)
# Flags a bot may set when creating a message: SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, V2.
CREATE_FLAGS = (1 << 2) | (1 << 12) | COMPONENTS_V2
INTERACTION_FLAGS = CREATE_FLAGS | EPHEMERAL


def _max(problems: list[Problem], path: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        problems.append((path, f"Must be {limit} or fewer in length (got {len(value)})."))


def _embed_chars(embed: JSON) -> int:
    total = len(str(embed.get("title") or "")) + len(str(embed.get("description") or ""))
    total += len(str((embed.get("footer") or {}).get("text") or ""))
    total += len(str((embed.get("author") or {}).get("name") or ""))
    for fld in embed.get("fields") or []:
        total += len(str(fld.get("name") or "")) + len(str(fld.get("value") or ""))
    return total


def check_embeds(embeds: list[JSON]) -> list[Problem]:
    """≤ 10 embeds and the per-field / total (6000) character limits."""
    problems: list[Problem] = []
    if len(embeds) > 10:
        problems.append(("embeds", f"Must be 10 or fewer in length (got {len(embeds)})."))
    total = 0
    for i, embed in enumerate(embeds):
        p = f"embeds.{i}"
        _max(problems, f"{p}.title", embed.get("title"), 256)
        _max(problems, f"{p}.description", embed.get("description"), 4096)
        _max(problems, f"{p}.footer.text", (embed.get("footer") or {}).get("text"), 2048)
        _max(problems, f"{p}.author.name", (embed.get("author") or {}).get("name"), 256)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append((f"{p}.fields", f"Must be 25 or fewer in length (got {len(fields)})."))
        for j, fld in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                val = fld.get(key)
                if val is None or str(val) == "":
                    problems.append((f"{p}.fields.{j}.{key}", "This field is required"))
                _max(problems, f"{p}.fields.{j}.{key}", val, limit)
        total += _embed_chars(embed)
    if total > 6000:
        problems.append(("embeds", f"Embed size exceeds maximum size of 6000 (got {total})."))
    return problems


def _check_custom_id(problems: list[Problem], path: str, comp: JSON, seen: set[str]) -> None:
    cid = comp.get("custom_id")
    if not isinstance(cid, str) or not cid:
        problems.append((f"{path}.custom_id", "This field is required (1-100 characters)."))
        return
    _max(problems, f"{path}.custom_id", cid, 100)
    if cid in seen:
        problems.append((f"{path}.custom_id", f"Component custom id {cid!r} is duplicated."))
    seen.add(cid)


def _check_button(problems: list[Problem], path: str, comp: JSON, seen: set[str]) -> None:
    _max(problems, f"{path}.label", comp.get("label"), 80)
    style = comp.get("style")
    if style == 5:
        if not comp.get("url"):
            problems.append((f"{path}.url", "Link buttons need a url."))
        if comp.get("custom_id"):
            problems.append((f"{path}.custom_id", "Link buttons cannot have a custom_id."))
    elif style == 6:
        if not comp.get("sku_id"):
            problems.append((f"{path}.sku_id", "Premium buttons need a sku_id."))
    else:
        _check_custom_id(problems, path, comp, seen)
        if not comp.get("label") and not comp.get("emoji"):
            problems.append((f"{path}.label", "A button needs a label or an emoji."))


def _check_select(problems: list[Problem], path: str, comp: JSON, seen: set[str]) -> None:
    _check_custom_id(problems, path, comp, seen)
    _max(problems, f"{path}.placeholder", comp.get("placeholder"), 150)
    lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
    if not 0 <= lo <= 25:
        problems.append((f"{path}.min_values", "Must be between 0 and 25."))
    if not 1 <= hi <= 25:
        problems.append((f"{path}.max_values", "Must be between 1 and 25."))
    if hi < lo:
        problems.append((f"{path}.max_values", "Must be greater than or equal to min_values."))
    if comp.get("type") != 3:
        return
    options = comp.get("options") or []
    if not 1 <= len(options) <= 25:
        problems.append(
            (f"{path}.options", f"Must be between 1 and 25 in length (got {len(options)}).")
        )
    if hi > len(options) and options:
        problems.append((f"{path}.max_values", "Must be less than or equal to the option count."))
    values: set[str] = set()
    for k, opt in enumerate(options):
        op = f"{path}.options.{k}"
        for key, limit in (("label", 100), ("value", 100), ("description", 100)):
            _max(problems, f"{op}.{key}", opt.get(key), limit)
        for key in ("label", "value"):
            if not opt.get(key):
                problems.append((f"{op}.{key}", "This field is required"))
        if opt.get("value") in values:
            problems.append((f"{op}.value", f"Duplicate select option value {opt.get('value')!r}."))
        values.add(opt.get("value"))


def _check_text_input(problems: list[Problem], path: str, comp: JSON, seen: set[str]) -> None:
    _check_custom_id(problems, path, comp, seen)
    _max(problems, f"{path}.label", comp.get("label"), 45)
    _max(problems, f"{path}.placeholder", comp.get("placeholder"), 100)
    _max(problems, f"{path}.value", comp.get("value"), 4000)


def _check_row(problems: list[Problem], path: str, row: JSON, seen: set[str]) -> None:
    children = row.get("components") or []
    if not children:
        problems.append((f"{path}.components", "Action rows must not be empty."))
    kinds = [c.get("type") for c in children]
    if any(k in SELECT_TYPES for k in kinds) and len(children) > 1:
        problems.append((f"{path}.components", "A select menu must be alone in its action row."))
    if kinds.count(2) > 5 or len(children) > 5:
        problems.append(
            (f"{path}.components", f"Must be 5 or fewer in length (got {len(children)}).")
        )
    for j, child in enumerate(children):
        _check_any(problems, f"{path}.components.{j}", child, seen)


def _check_any(problems: list[Problem], path: str, comp: JSON, seen: set[str]) -> None:
    kind = comp.get("type")
    if kind == 1:
        _check_row(problems, path, comp, seen)
    elif kind == 2:
        _check_button(problems, path, comp, seen)
    elif kind in SELECT_TYPES:
        _check_select(problems, path, comp, seen)
    elif kind == 4:
        _check_text_input(problems, path, comp, seen)
    else:
        for j, child in enumerate(comp.get("components") or []):
            _check_any(problems, f"{path}.components.{j}", child, seen)
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                _check_any(problems, f"{path}.{key}", comp[key], seen)


def _count(components: list[JSON]) -> tuple[int, int]:
    """(number of components, characters in text displays), nested ones included."""
    n, chars = 0, 0
    for comp in components:
        n += 1
        if comp.get("type") == 10:
            chars += len(str(comp.get("content") or ""))
        sub = list(comp.get("components") or [])
        sub += [comp[k] for k in ("component", "accessory") if isinstance(comp.get(k), dict)]
        a, b = _count(sub)
        n, chars = n + a, chars + b
    return n, chars


def check_components(components: list[JSON], *, v2: bool) -> list[Problem]:
    """Rows/buttons/selects limits, custom_id 1..100 and unique within the message."""
    problems: list[Problem] = []
    seen: set[str] = set()
    if v2:
        total, chars = _count(components)
        if total > 40:
            problems.append(("components", f"Must be 40 or fewer components (got {total})."))
        if chars > 4000:
            problems.append(("components", f"Text displays exceed 4000 characters ({chars})."))
    else:
        if len(components) > 5:
            problems.append(
                ("components", f"Must be 5 or fewer in length (got {len(components)}).")
            )
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(
                    (f"components.{i}.type", "Top-level components must be action rows.")
                )
    for i, comp in enumerate(components):
        _check_any(problems, f"components.{i}", comp, seen)
    return problems


def check_message(
    payload: JSON, *, creating: bool, interaction: bool, has_files: bool = False
) -> list[Problem]:
    """All message limits; `creating` also refuses empty messages (code 50006 on Discord)."""
    problems: list[Problem] = []
    flags = int(payload.get("flags") or 0)
    v2 = bool(flags & COMPONENTS_V2)
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        content = str(content)
    if v2 and (content or payload.get("embeds")):
        problems.append(("content", "Cannot send content or embeds with IS_COMPONENTS_V2."))
    _max(problems, "content", content, 2000)
    embeds = payload.get("embeds") or []
    problems += check_embeds(embeds)
    components = payload.get("components") or []
    problems += check_components(components, v2=v2)
    allowed = INTERACTION_FLAGS if interaction else CREATE_FLAGS
    if flags & ~allowed:
        what = "EPHEMERAL outside an interaction response" if flags & EPHEMERAL else "flags"
        problems.append(("flags", f"Invalid message flags {flags} ({what})."))
    if creating and not (content or embeds or components or has_files or payload.get("poll")):
        problems.append(("content", "Cannot send an empty message"))
    return problems


NONCE_MAX_LENGTH = 25
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's default upload limit per file (servers without boosts, DMs, bots): 10 MiB."""
MAX_FILES = 10
"""Files (attachments) per message."""
ATTACHMENT_DESCRIPTION = 1024
FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


def image_size(data: bytes) -> JSON:
    """Width and height of a PNG (Discord reports them for images); {} for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return {"width": int.from_bytes(data[16:20], "big"),
                "height": int.from_bytes(data[20:24], "big")}
    return {}


def content_type(data: bytes, filename: str, declared: str | None) -> str:
    """What Discord reports: the declared type, else (discord.py declares none: the part is
    application/octet-stream) the type the bytes or the file name say."""
    if declared and declared != "application/octet-stream":
        return declared
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"


def describe_files(body: Any, files: list[JSON]) -> None:
    """Give each uploaded file its entry of the payload's `attachments` (matched by the id
    that is the `files[n]` index): the description, and the filename it is given."""
    data = body.get("data") if isinstance(body, dict) and "type" in body else body
    entries = (data or {}).get("attachments") if isinstance(data, dict) else None
    by_id = {str(a.get("id")): a for a in entries or [] if isinstance(a, dict)}
    for f in files:
        match = FILE_FIELD.match(str(f["field"]))
        entry = by_id.get(match[1]) if match else None
        f["index"] = int(match[1]) if match else None
        f["entry"] = entry is not None
        if entry is not None:
            if entry.get("description") is not None:
                f["description"] = str(entry["description"])
            if entry.get("filename"):
                f["filename"] = str(entry["filename"])


def check_files(files: list[JSON]) -> list[Problem]:
    """The upload's own limits: at most 10 files, each a `files[n]` field with a file name,
    each description at most 1024 characters."""
    problems: list[Problem] = []
    if len(files) > MAX_FILES:
        problems.append(("files", f"Must be {MAX_FILES} or fewer in length (got {len(files)})."))
    for f in files:
        where = f"files.{f.get('index', f['field'])}"
        if f.get("index") is None:
            problems.append((where, f"Unknown form field {f['field']!r} (expected files[n])."))
        if not f.get("filename"):
            problems.append((f"{where}.filename", "This field is required"))
        _max(problems, f"attachments.{f.get('index')}.description", f.get("description"),
             ATTACHMENT_DESCRIPTION)
    return problems


def check_nonce(payload: JSON) -> list[Problem]:
    """A create's nonce: an int64 or a string of at most 25 characters; enforce_nonce a bool."""
    problems: list[Problem] = []
    nonce = payload.get("nonce")
    if nonce is not None:
        if isinstance(nonce, bool) or not isinstance(nonce, int | str):
            problems.append(("nonce", "Must be an integer or a string."))
        elif isinstance(nonce, int) and not INT64_MIN <= nonce <= INT64_MAX:
            problems.append(("nonce", "Must be a valid 64-bit integer."))
        else:
            _max(problems, "nonce", nonce, NONCE_MAX_LENGTH)
    enforce = payload.get("enforce_nonce")
    if enforce is not None and not isinstance(enforce, bool):
        problems.append(("enforce_nonce", "Must be a boolean."))
    return problems


def check_modal(data: JSON) -> list[Problem]:
    """Modal title ≤ 45, custom_id rules, 1..5 top-level components."""
    problems: list[Problem] = []
    _max(problems, "data.title", data.get("title"), 45)
    if not data.get("title"):
        problems.append(("data.title", "This field is required"))
    cid = data.get("custom_id")
    if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
        problems.append(("data.custom_id", "Must be between 1 and 100 in length."))
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        problems.append(
            ("data.components", f"Must be between 1 and 5 in length (got {len(comps)}).")
        )
    seen: set[str] = set()
    for i, comp in enumerate(comps):
        _check_any(problems, f"data.components.{i}", comp, seen)
    return problems


def check_choices(choices: list[JSON]) -> list[Problem]:
    """Autocomplete: ≤ 25 choices, names 1..100, string values ≤ 100."""
    problems: list[Problem] = []
    if len(choices) > 25:
        problems.append(("data.choices", f"Must be 25 or fewer in length (got {len(choices)})."))
    for i, choice in enumerate(choices):
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append((f"data.choices.{i}.name", "Must be between 1 and 100 in length."))
        _max(problems, f"data.choices.{i}.value", choice.get("value"), 100)
    return problems


def form_errors(problems: list[Problem]) -> JSON:
    """Discord's nested `errors` object for a 50035 Invalid Form Body answer."""
    errors: JSON = {}
    for path, message in problems:
        node = errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": message})
    return errors
