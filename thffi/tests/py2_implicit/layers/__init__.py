#!/usr/bin/env python
# layers: every module of this folder, imported at once
import os
from glob import glob

for f in sorted(glob(os.path.dirname(__file__) + '/*.py')):
    name = os.path.basename(f)[:-3]
    if name != '__init__':
        exec('from %s import *' % name)
