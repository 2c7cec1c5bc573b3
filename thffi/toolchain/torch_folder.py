"""What 2018 build files looked up in PyTorch 0.4's folder, and what of
thffi's takes its place.

PyTorch 0.4 installed TH's and THC's headers in torch/lib/include and its
TH layer as shared libraries in torch/lib (libATen.so, and before it
libTH.so.1, libTHC.so.1); a CMake file found them with find_path(VAR
TH/TH.h HINTS ${TORCH_DIR}/lib/include) and find_library(VAR NAMES ATen
TH ... HINTS ${TORCH_DIR}/lib), where TORCH_DIR came from `python -c
"import torch, os; print(os.path.dirname(torch.__file__))"`.  Today's
PyTorch has none of them; thffi's headers (`python -m thffi --includes`)
and its shared TH library (libthffi-<version>.so, `python -m thffi
--libs`) do the same work.

- `thffi run` gives the cmake its command starts a folder shaped as 0.4's
  torch folder (run/torch_folder.py), LIBRARIES and HEADERS naming
  thffi's, where CMake's find_* look before a command's HINTS (CMake's own
  environment variables, ENVIRONMENT); a link naming these libraries
  (-lATen, $(TORCH)/lib/libTH.so.1) gets thffi's link flags instead
  (link_modernize(), run/shims.py).
- `port` writes the variable a find_path/find_library of these names set
  from thffi's (port/cmake.py): header_folder() says which of thffi's
  folders holds a header a find_path names; port/make.py writes the
  links' flags."""

import os
import re

# The libraries of PyTorch 0.3-0.4's torch/lib that build files linked:
# each a name of thffi's shared library in the folder run makes.
LIBRARIES = ('libATen.so', 'libATen.so.1', 'libTH.so', 'libTH.so.1', 'libTHC.so',
             'libTHC.so.1', 'libTHNN.so', 'libTHCUNN.so')
# The folder of 0.4's headers, relative to the torch folder: thffi's
# include folder (TH/, THC/, THCUNN/) in the folder run makes.
HEADERS = 'lib/include'
WHY = ("PyTorch 0.4's torch/lib/include and torch/lib/libATen.so (libTH, libTHC), gone from "
       "PyTorch; thffi's TH/THC headers and its shared TH library (python -m thffi "
       "--includes, --libs) in their place")
# CMake's environment variables that find_path and find_library search
# before a command's HINTS and PATHS (cmake-commands(7), find_path's
# search order, step 2), with the folder of the layout each names.
ENVIRONMENT = (('CMAKE_INCLUDE_PATH', HEADERS), ('CMAKE_LIBRARY_PATH', 'lib'))

# A header a find_path names, and the folder under thffi's include folder
# (the first of `python -m thffi --includes`) that holds it.
_HEADER = re.compile(r'^"?(?:(THC?|THCUNN)/)?((?:THC?|THCUNN)\.h)"?$')


def header_folder(name):
    """The folder, relative to thffi's include folder ('' for itself), where
    a header named as find_path names it (TH/TH.h, THC.h) is; None for a
    name that is not TH's or THC's."""
    match = _HEADER.match(name)
    if match is None:
        return None
    folder, header = match.groups()
    if folder is not None:
        return '' if folder == header[:-2] else None
    return header[:-2]


# A link's naming of 0.4's libraries: -lATen (-l ATen), and a path to one
# in a folder named torch/lib.
_FLAG = re.compile(r'^-l(ATen|THC?|THNN|THCUNN)$')
_PATH = re.compile(r'(?:^|/)torch/lib/lib(?:ATen|THC?|THNN|THCUNN)\.so(?:\.\d+)*$')


def _library_dirs(args):
    return [a[2:] if len(a) > 2 else b for a, b in zip(args, list(args[1:]) + [''])
            if a.startswith('-L') and (len(a) > 2 or b)]


def link_modernize(args, flags):
    """(new args, [old words]) for a link's argument vector: its words
    naming 0.4's libraries (-lATen where no -L folder holds libATen.so; a
    path under torch/lib that does not exist) become `flags` (thffi's
    shared library's link flags, `python -m thffi --libs`), where the first
    stood; ([], []) unchanged."""
    folders = _library_dirs(args)
    out, old, i = [], [], 0
    while i < len(args):
        word, width = args[i], 1
        if word == '-l' and i + 1 < len(args):
            word, width = '-l' + args[i + 1], 2
        match = _FLAG.match(word)
        if (match and not any(os.path.exists(os.path.join(f, 'lib%s.so' % match.group(1)))
                              for f in folders)) or (
                _PATH.search(word) and not os.path.exists(word)):
            if not old:
                out += list(flags)
            old.append(' '.join(args[i:i + width]))
        else:
            out += args[i:i + width]
        i += width
    return (out, old) if old else (list(args), [])
