"""Edits of a build file's text by span, shared by the rewriters of
line-oriented build files (shell.py, make.py): a flag's words replaced or
deleted, with the blanks and backslash continuations they leave."""


def replace_flags(flags, replacement):
    """Edits putting replacement over the first flag's words and deleting
    the others' (flags: a list of lists of word spans)."""
    spans = sorted(span for flag in flags for span in flag)
    return [(s, e, replacement if (s, e) == spans[0] else '') for s, e in spans]


def apply_edits(text, edits):
    """text with the edits made: a deleted word goes with the blanks before
    it (after it, when it starts its line); a line an edit leaves holding
    nothing (or only a continuation) goes, and the line before it stops
    continuing when it ended the command; one left holding only a closing
    quote joins the line before."""
    if not edits:
        return text
    lines_before = text.splitlines(keepends=True)
    for start, end, replacement in sorted(edits, reverse=True):
        line_start = text.rfind('\n', 0, start) + 1
        if not replacement and text[line_start:start].strip():
            while text[start - 1] in ' \t':
                start -= 1
        elif not replacement:  # the first word of its line: the indent stays
            while end < len(text) and text[end] in ' \t':
                end += 1
        text = text[:start] + replacement + text[end:]
    lines = text.splitlines(keepends=True)
    out = []
    for before, line in zip(lines_before, lines):
        if line.strip() in ('"', "'") and before.strip() != line.strip() and out:
            # A quoted value over several lines whose last flags went: its
            # closing quote joins the line before (`X="$(...)"`), no line
            # of blanks and a quote.
            body = out[-1].rstrip('\n').rstrip()
            out[-1] = (body[:-1].rstrip() if body.endswith('\\') else body) + line.strip() + '\n'
            continue
        if line.strip() in ('', '\\') and before.strip() not in ('', '\\'):
            if not line.rstrip('\n').rstrip().endswith('\\') and out:
                body = out[-1].rstrip('\n').rstrip()
                if body.endswith('\\'):
                    out[-1] = body[:-1].rstrip() + '\n'
            continue
        out.append(line)
    return ''.join(out)
