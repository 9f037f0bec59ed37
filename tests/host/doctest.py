#!/usr/bin/env python3
"""List the commands of the fenced sh blocks of markdown files, with how each is checked.

Each fenced block whose info string is sh (or bash) must follow an HTML comment
<!-- doctest ... --> that holds one line per command of the block, in order: "KIND: ARG"
(docs/DEVELOPING.md names the kinds). A command is a line of the block that is neither empty
nor a comment; a line ending in a backslash goes on with the next one. Prints one line per command:
file, number, kind, argument, command, separated by US (0x1f, so that an empty field stays a
field); or "ERROR file:line why" for a block without its comment, a comment without its block, or
counts that differ.
"""
import re
import sys

KINDS = {"run", "quiet", "creates", "tui", "serve", "vm", "no"}
FENCE = re.compile(r"^```(\S*)")


def commands(body):
    """The commands of a block's lines: comments and blank lines left out, continuations joined."""
    out, cur = [], ""
    for line in body:
        if not cur and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            cur += line[:-1] + " "
            continue
        out.append(cur + line)
        cur = ""
    if cur:
        out.append(cur)
    return out


def directives(text):
    """The KIND: ARG lines of a doctest comment, or a sentence saying which line is wrong."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        kind, sep, arg = line.partition(":")
        if not sep or kind not in KINDS:
            return "'%s' is not KIND: ARG with KIND one of %s" % (line, " ".join(sorted(KINDS)))
        if (kind == "quiet") != (not arg.strip()):
            return "'%s': quiet takes no argument, every other kind one" % line
        out.append((kind, arg.strip()))
    return out


def scan(path):
    """Print the commands of one file, or its errors."""
    lines = open(path, encoding="utf-8").read().split("\n")
    pending, pending_at, n, i = None, 0, 0, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("<!-- doctest"):
            j = i
            while "-->" not in lines[j]:
                j += 1
            text = "\n".join(lines[i:j + 1])
            text = text[len("<!-- doctest"):text.index("-->")]
            if pending is not None:
                print("ERROR %s:%d a doctest comment without its sh block" % (path, pending_at))
            pending, pending_at = directives(text), i + 1
            i = j + 1
            continue
        m = FENCE.match(line)
        if not m:
            if line.strip() and pending is not None:
                print("ERROR %s:%d a doctest comment not followed by its sh block" % (path, pending_at))
                pending = None
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        if m.group(1) in ("sh", "bash"):
            cmds = commands(lines[i + 1:j])
            if pending is None:
                print("ERROR %s:%d an sh block without a doctest comment before it" % (path, i + 1))
            elif isinstance(pending, str):
                print("ERROR %s:%d %s" % (path, pending_at, pending))
            elif len(pending) != len(cmds):
                print("ERROR %s:%d %d doctest lines for %d commands" % (path, pending_at, len(pending), len(cmds)))
            else:
                for (kind, arg), cmd in zip(pending, cmds):
                    n += 1
                    print("\x1f".join([path, str(n), kind, arg, cmd]))
        elif pending is not None:
            print("ERROR %s:%d a doctest comment before a block that is not sh" % (path, pending_at))
        pending = None
        i = j + 1


for p in sys.argv[1:]:
    scan(p)
