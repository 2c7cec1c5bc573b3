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

# old: the folder, relative to the torch package's; why: what became of it.
Folder = collections.namedtuple('Folder', 'old why')
_GONE_0_4 = ("PyTorch 0.4's TH and THC headers, gone since PyTorch 1.0 moved them to "
             "torch/include and then removed them")
OLD_FOLDERS = [
    Folder('lib/include', _GONE_0_4),
    Folder('lib/include/TH', _GONE_0_4),
    Folder('lib/include/THC', _GONE_0_4),
    Folder('include/TH', "PyTorch 1.x's TH headers, gone from today's PyTorch"),
    Folder('include/THC', "PyTorch 1.x's THC headers, gone from today's PyTorch"),
]
NEW = "thffi's TH/THC headers in the old layout (python -m thffi --includes)"
# The end of an old folder's path, as a regular expression (a trailing '/'
# allowed): the longest first, so that an unanchored match takes it whole.
PATH_SUFFIX = '(?:%s)/?' % '|'.join(
    re.escape('/' + f.old) for f in sorted(OLD_FOLDERS, key=lambda f: -len(f.old)))

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


def modernize(args, flags, set_aside=None):
    """(new args, [Change]) for a compiler's argument vector: the include
    options naming OLD_FOLDERS become `flags` (thffi's -I flags) where the
    first of them stood, the others go (one Change for them all); the
    folders of set_aside ({folder as given: why}: copies of a library the
    toolkit ships) go."""
    set_aside = set_aside or {}
    out, changes, old, whys, last = [], [], [], [], 0
    for index, width, option, folder in include_folders(args):
        out += args[last:index]
        last = index + width
        row = old_folder(folder)
        if row is not None:
            out += [] if old else list(flags)
            old.append(' '.join(args[index:index + width]))
            whys += [] if row.why in whys else [row.why]
        elif folder in set_aside:
            changes.append(Change(' '.join(args[index:index + width]), '', set_aside[folder]))
        else:
            out += args[index:index + width]
    if old:
        changes.insert(0, Change(' '.join(old), ' '.join(flags), '%s; instead, %s'
                                 % ('; '.join(whys), NEW)))
    return out + args[last:], changes
