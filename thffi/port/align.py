"""Continuation lines after a rewrite, for `python -m thffi port`: libcst
and fissix keep each line's whitespace as it was, so a line aligned with
the bracket opened on the line above (PEP 8's visual indent) is out of line
once a rewrite changes the length of what comes before that bracket
(`F.upsample(x,` -> `F.interpolate(x,`).  realign() moves such lines to
the bracket's new column; hanging indents (a bracket that ends its line)
and lines that were not aligned stay as they are."""

import difflib
import io
import tokenize

_OPEN, _CLOSE = '([{', ')]}'


def _scan(readline, on_line):
    """Tokenizes what readline gives, calling on_line(row, column of the
    innermost open bracket if it is followed by code on its line (else
    None), whether the line is inside a string, line) as each line is read;
    on_line returns the line to use."""
    stack = []        # [column, hanging] of each open bracket
    last_row = 0      # the row the last token ended on
    row = [0]

    def reading():
        line = readline()
        row[0] += 1
        if line:
            visual = stack[-1][0] if stack and stack[-1][1] is False else None
            line = on_line(row[0], visual, last_row < row[0] - 1, line)
        return line

    for tok in tokenize.generate_tokens(reading):
        if stack and stack[-1][1] is None:
            stack[-1][1] = tok.type in (tokenize.NL, tokenize.COMMENT)
        if tok.type == tokenize.OP and tok.string in _OPEN:
            stack.append([tok.start[1], None])
        elif tok.type == tokenize.OP and tok.string in _CLOSE and stack:
            stack.pop()
        last_row = tok.end[0]


def _aligned(source):
    """The rows (1-based) of source that start inside a bracket, aligned
    with it (their first character just after it)."""
    found = set()

    def on_line(row, visual, in_string, line):
        stripped = line.lstrip(' ')
        if visual is not None and not in_string and stripped.strip() and \
                stripped[0] not in _CLOSE and len(line) - len(stripped) == visual + 1:
            found.add(row)
        return line

    _scan(io.StringIO(source).readline, on_line)
    return found


def realign(before, after):
    """after (before rewritten), with the lines that were aligned with their
    bracket in before aligned with it again.  Lines are matched by
    difflib (a changed line to the most alike old one among those changed
    there); text that does not tokenize is returned as it is."""
    try:
        aligned = _aligned(before)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return after
    if not aligned:
        return after
    old = before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    matched = {}  # new row -> old row, both 1-based
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new,
                                                       autojunk=False).get_opcodes():
        if tag == 'equal' or tag == 'replace' and i2 - i1 == j2 - j1:
            matched.update((j1 + k + 1, i1 + k + 1) for k in range(j2 - j1))
        elif tag == 'replace':  # lines changed, others removed: match them by likeness
            i = i1
            for j in range(j1, j2):
                like = next((k for k in range(i, i2) if difflib.SequenceMatcher(
                    None, old[k].strip(), new[j].strip()).ratio() >= 0.6), None)
                if like is not None:
                    matched[j + 1], i = like + 1, like + 1
    out = []

    def on_line(row, visual, in_string, line):
        stripped = line.lstrip(' ')
        if visual is not None and not in_string and matched.get(row) in aligned and \
                stripped.strip() and stripped[0] not in _CLOSE:
            line = ' ' * (visual + 1) + stripped
        out.append(line)
        return line

    try:
        _scan(io.StringIO(after).readline, on_line)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return after
    return ''.join(out)
