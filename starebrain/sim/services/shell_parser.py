"""A tiny POSIX-sh subset: words with quotes and `$VAR`/`$?`, `;` `&&` `||` `|`, and simple redirects."""

from __future__ import annotations

from dataclasses import dataclass, field

OPERATORS = ("&&", "||", ";", "|", "&", "\n")


class ShellSyntaxError(Exception):
    """The command line cannot be parsed (e.g. an unterminated quote)."""


# A word is a list of parts: ("lit", text) or ("var", name); variables expand when the command runs.
Word = list[tuple[str, str]]


@dataclass
class Command:
    """One simple command: its words and its output redirection."""

    words: list[Word] = field(default_factory=list)
    stdout_file: str | None = None
    append: bool = False
    stderr_null: bool = False


@dataclass
class Step:
    """A pipeline with the connector that decides whether it runs (`;`, `&&` or `||`)."""

    connector: str
    pipeline: list[Command]


def parse(line: str) -> list[Step]:
    """Parse a command line into steps; ShellSyntaxError on unmatched quotes."""
    steps: list[Step] = []
    pipeline: list[Command] = [Command()]
    connector = ";"
    redirect: str | None = None  # a `>` or `>>` waiting for its file name
    for token in _tokens(line):
        if isinstance(token, str):
            if token == "|":
                pipeline.append(Command())
                continue
            _append_step(steps, connector, pipeline)
            connector = ";" if token in (";", "&", "\n") else token
            pipeline = [Command()]
        elif redirect is not None:
            pipeline[-1].stdout_file = "".join(value for _, value in token)
            pipeline[-1].append = redirect == ">>"
            redirect = None
        else:
            redirect = _add_word(pipeline[-1], token)
    _append_step(steps, connector, pipeline)
    return steps


def _append_step(steps: list[Step], connector: str, pipeline: list[Command]) -> None:
    commands = [c for c in pipeline if c.words]
    if commands:
        steps.append(Step(connector, commands))


def _add_word(command: Command, word: Word) -> str | None:
    """Add an argument or apply a redirection; returns `>`/`>>` when the file name comes next."""
    text = "".join(value for _, value in word) if all(kind == "lit" for kind, _ in word) else None
    if text in (">", ">>", "1>", "1>>"):
        return text.lstrip("1")
    if text in ("2>&1", ">&2", "1>&2"):
        return None  # stdout and stderr are merged anyway on shell v1
    if text is not None and text.startswith("2>"):
        command.stderr_null = text == "2>/dev/null"
    elif text is not None and text.startswith(">") and len(text.lstrip(">")) > 0:
        command.append = text.startswith(">>")
        command.stdout_file = text.lstrip(">")
    else:
        command.words.append(word)
    return None


def _tokens(line: str) -> list[str | Word]:
    """Operators as str, words as Word."""
    out: list[str | Word] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch in " \t\r":
            i += 1
        elif ch == "#":
            while i < n and line[i] != "\n":
                i += 1
        elif line.startswith(("&&", "||"), i):
            out.append(line[i:i + 2])
            i += 2
        elif ch in ";|&\n" and not line.startswith(">&", i - 1 if i else 0):
            out.append(ch)
            i += 1
        else:
            word, i = _word(line, i)
            out.append(word)
    return out


def _word(line: str, i: int) -> tuple[Word, int]:
    parts: Word = []
    n = len(line)
    while i < n and line[i] not in " \t\r\n;|":
        ch = line[i]
        if ch == "&" and not (parts and _last_literal(parts).endswith(">")):
            break
        if ch == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unmatched '")
            parts.append(("lit", line[i + 1:end]))
            i = end + 1
        elif ch == '"':
            i = _double_quoted(line, i + 1, parts)
        elif ch == "\\" and i + 1 < n:
            parts.append(("lit", line[i + 1]))
            i += 2
        elif ch == "$":
            i = _variable(line, i, parts)
        else:
            parts.append(("lit", ch))
            i += 1
    return _merge(parts), i


def _double_quoted(line: str, i: int, parts: Word) -> int:
    n = len(line)
    parts.append(("lit", ""))  # "" is an (empty) word of its own
    while i < n and line[i] != '"':
        if line[i] == "\\" and i + 1 < n and line[i + 1] in '"\\$`':
            parts.append(("lit", line[i + 1]))
            i += 2
        elif line[i] == "$":
            i = _variable(line, i, parts)
        else:
            parts.append(("lit", line[i]))
            i += 1
    if i >= n:
        raise ShellSyntaxError('unmatched "')
    return i + 1


def _variable(line: str, i: int, parts: Word) -> int:
    """`$?`, `$NAME` or `${NAME}` at line[i] == '$'; a lone `$` is literal."""
    rest = line[i + 1:]
    if rest.startswith("?"):
        parts.append(("var", "?"))
        return i + 2
    if rest.startswith("{") and "}" in rest:
        name = rest[1:rest.index("}")]
        parts.append(("var", name))
        return i + 2 + len(name) + 1
    length = 0
    while length < len(rest) and (rest[length].isalnum() or rest[length] == "_"):
        length += 1
    if length == 0:
        parts.append(("lit", "$"))
        return i + 1
    parts.append(("var", rest[:length]))
    return i + 1 + length


def _last_literal(parts: Word) -> str:
    return parts[-1][1] if parts and parts[-1][0] == "lit" else ""


def _merge(parts: Word) -> Word:
    merged: Word = []
    for kind, value in parts:
        if kind == "lit" and merged and merged[-1][0] == "lit":
            merged[-1] = ("lit", merged[-1][1] + value)
        else:
            merged.append((kind, value))
    return merged


def expand(word: Word, env: dict[str, str]) -> str:
    """The word's text with its variables replaced (unset variables are empty)."""
    return "".join(value if kind == "lit" else env.get(value, "") for kind, value in word)
