"""CUDA-only code (no GPU here, nothing to compare): the repository's Python wrapper imports
(CORPUS_WRAPPER, where it has one), and the extension module (CORPUS_MODULE) has every C
function the wrapper calls (CORPUS_ENTRY_POINTS, comma-separated)."""

import importlib
import os

from corpus_check import entry_points, extension, imported

extension()
if os.environ.get('CORPUS_WRAPPER'):
    importlib.import_module(os.environ['CORPUS_WRAPPER'])
lib = importlib.import_module(os.environ['CORPUS_MODULE'])
imported()
entry_points(lib, os.environ['CORPUS_ENTRY_POINTS'].split(','))
