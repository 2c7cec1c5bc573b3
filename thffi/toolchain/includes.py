"""Include folders, then and now.

PyTorch 0.4 installed TH's and THC's headers in torch/lib/include
(TH/TH.h, THC/THC.h), and 2018 build files named those folders:
`-I $TORCH/lib/include`, `-I$(TORCH)/lib/include/TH`, `'-I' + torch_lib +
'/include/THC'`; PyTorch 1.x kept them in torch/include/TH(C).  Today's
PyTorch has neither, and thffi's headers, in the old layout (`python -m
thffi --includes`), take their place.  OLD_FOLDERS lists the folders,
relative to the torch package's folder; port's writers match PATH_SUFFIX
after a variable or a path ending in /torch in build files (make.py,
shell.py, cmake.py), and `thffi run`'s compilers apply modernize() to the
command they are given, where the variables are expanded.

A copy of a library the CUDA toolkit ships (vendored.py: CUB 1.x, thrust)
named as an include folder makes `<cub/cub.cuh>` find the copy before the
toolkit's; modernize() sets aside the folders its caller found to hold
one."""

import collections
import os
import re

from .nvcc import Change

# old: the folder, relative to the torch package's; why: what became of it;
# within: None, or the folder of thffi's include folder whose headers code
# included from it by bare name ("common.h"), added to thffi's include
# flags where a command names it (not in `python -m thffi --includes`:
# THCUNN's common.h would hide a repository's own); written: whether port's
# writers replace it after any variable, whose value they do not see (not
# lib/TH, which a repository may name for its own headers; thffi run sees
# the path, under a folder named torch).
Folder = collections.namedtuple('Folder', 'old why within written', defaults=(None, True))
_GONE_0_4 = ("PyTorch 0.4's TH and THC headers, gone since PyTorch 1.0 moved them to "
             "torch/include and then removed them")
_SOURCE_0_3 = ("PyTorch 0.3's source tree, where a source build's files found TH's, THC's and "
               "THCUNN's headers (torch/lib/TH, THC, THCUNN), gone since PyTorch 0.4 moved them "
               "to aten/src")
OLD_FOLDERS = [
    Folder('lib/include', _GONE_0_4),
    Folder('lib/include/TH', _GONE_0_4),
    Folder('lib/include/THC', _GONE_0_4),
    Folder('lib/include/THCUNN', "PyTorch 0.4's THCUNN headers (*.cuh), gone since PyTorch 1.0 "
           "moved them to torch/include and then removed them", 'THCUNN', False),
    Folder('lib/TH', _SOURCE_0_3, None, False),
    Folder('lib/THC', _SOURCE_0_3, None, False),
    Folder('lib/THCUNN', _SOURCE_0_3, 'THCUNN', False),
    Folder('include/TH', "PyTorch 1.x's TH headers, gone from today's PyTorch"),
    Folder('include/THC', "PyTorch 1.x's THC headers, gone from today's PyTorch"),
]
NEW = "thffi's TH/THC headers in the old layout (python -m thffi --includes)"
# The end of an old folder's path that port's writers replace with `python
# -m thffi --includes` (the rows `written`), as a regular expression (a
# trailing '/' allowed): the longest first, so that an unanchored match
# takes it whole.
PATH_SUFFIX = '(?:%s)/?' % '|'.join(
    re.escape('/' + f.old) for f in sorted(OLD_FOLDERS, key=lambda f: -len(f.old))
    if f.written)

# gcc's and nvcc's options naming an include folder, its value the next
# argument, or joined (-Ifolder) or after '=' (--include-path=folder).
_JOINED = ('-I', '-isystem', '-idirafter', '-iquote')
_WITH_EQUALS = ('--include-path', '--system-include')


def old_folder(folder):
    """The Folder row an include folder (a path as a command gives it)
    names, or None: a path ending in a row's folder, under a folder named
    torch, that does not exist (a folder that does is someone's headers)."""
    path = os.path.normpath(folder)
    for row in OLD_FOLDERS:
        head, sep, tail = path.rpartition('/' + row.old)
        if sep and not tail and os.path.basename(head) == 'torch' and not os.path.isdir(path):
            return row
    return None


def include_folders(args):
    """[(index, width, option, folder)] of the include options of a gcc or
    nvcc argument vector: width 2 where the folder is the next argument."""
    found, i = [], 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition('=')
        if (arg in _JOINED or arg in _WITH_EQUALS) and i + 1 < len(args):
            found.append((i, 2, arg, args[i + 1]))
            i += 2
            continue
        if name in _WITH_EQUALS and eq:
            found.append((i, 1, name, value))
        else:
            option = next((o for o in _JOINED if arg.startswith(o) and len(arg) > len(o)), None)
            if option:
                found.append((i, 1, option, arg[len(option):]))
        i += 1
    return found


# nvcc's options whose value it hands to the host compiler (which also
# preprocesses for nvcc): words split at commas and blanks.
_HOST_OPTIONS = ('-Xcompiler', '--compiler-options')


def _lifted(args, moved):
    """args, with the include options of nvcc's host options (-Xcompiler
    a,b; --compiler-options "a b"; =value) that moved(folder) says move
    taken out to follow them as nvcc's own (which nvcc hands to the host
    compiler too), where the rules below see them; an option left with
    no value goes."""
    out, i = [], 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition('=')
        if arg in _HOST_OPTIONS and i + 1 < len(args):
            option, value, width = arg, args[i + 1], 2
        elif name in _HOST_OPTIONS and eq:
            option, width = name, 1
        else:
            out.append(arg)
            i += 1
            continue
        words = [w for w in re.split(r'[,\s]+', value) if w]
        lift = set()
        for index, step, _, folder in include_folders(words):
            if moved(folder):
                lift.update(range(index, index + step))
        if not lift:
            out += args[i:i + width]
        else:
            kept = [w for k, w in enumerate(words) if k not in lift]
            out += ([option, ','.join(kept)] if kept else []) + [
                w for k, w in enumerate(words) if k in lift]
        i += width
    return out


def folders(args):
    """The include folders an argument vector names, those of nvcc's host
    options too."""
    return [folder for _, _, _, folder in include_folders(_lifted(args, lambda folder: True))]


def modernize(args, flags, set_aside=None, include_dir=None):
    """(new args, [Change]) for a compiler's argument vector: the include
    options naming OLD_FOLDERS become `flags` (thffi's -I flags), with the
    folders of include_dir (thffi's include folder) the rows name `within`,
    where the first of them stood, the others go (one Change for them all);
    the folders of set_aside ({folder as given: why}: copies of a library
    the toolkit ships) go; also inside nvcc's host options (_lifted)."""
    set_aside = set_aside or {}
    args = _lifted(args, lambda folder: old_folder(folder) is not None or folder in set_aside)
    out, changes, old, whys, within, last = [], [], [], [], [], 0
    at = None
    for index, width, option, folder in include_folders(args):
        out += args[last:index]
        last = index + width
        row = old_folder(folder)
        if row is not None:
            at = len(out) if at is None else at
            old.append(' '.join(args[index:index + width]))
            whys += [] if row.why in whys else [row.why]
            if row.within and include_dir and row.within not in within:
                within.append(row.within)
        elif folder in set_aside:
            changes.append(Change(' '.join(args[index:index + width]), '', set_aside[folder]))
        else:
            out += args[index:index + width]
    out += args[last:]
    if old:
        new = list(flags) + ['-I' + os.path.join(include_dir, w) for w in within]
        out[at:at] = new
        changes.insert(0, Change(' '.join(old), ' '.join(new), '%s; instead, %s'
                                 % ('; '.join(whys), NEW)))
    return out, changes
