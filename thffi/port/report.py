"""What `python -m thffi port` found in a file: a change it made, or
something it left for the user."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    path: str       # relative to the ported folder; '': what holds for all of it
    line: int       # 1-based; 0 when it concerns the whole file
    message: str
    fixed: bool     # True: the diff changes it; False: left for the user

    def __str__(self):
        return '%s:%d: %s' % (self.path, self.line, self.message) if self.line else \
            '%s: %s' % (self.path, self.message)


def format_report(root, findings, files_read, changed, written):
    """The report printed after the diff: what holds for the whole
    repository (the PyTorch version assumed), what was changed, then what
    was left for the user, each as path:line: message."""
    lines = ['thffi port: %s: read %d files, %s %d' % (
        root, files_read, 'changed' if written else 'would change', len(changed))]
    lines += [f.message for f in findings if f.path == '']
    fixed = [f for f in findings if f.fixed and f.path != '']
    left = [f for f in findings if not f.fixed and f.path != '']
    if fixed:
        lines.append('%s:' % ('changed' if written else 'would change'))
        lines += ['  %s' % f for f in fixed]
    lines.append('left for you (not changed):' if left else 'left for you: nothing')
    lines += ['  %s' % f for f in left]
    return '\n'.join(lines) + '\n'
