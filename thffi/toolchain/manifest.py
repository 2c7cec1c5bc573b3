"""The file a thffi build writes beside each library it installs: its
manifest (what was built from what, builder/install.py).  Here, below the
builder, because `python -m thffi port` reads whether it is there too."""

import os

MANIFEST = '.thffi-build.json'


def built_here(folder):
    """Whether `folder` holds a library thffi's build installed (its
    manifest): `python -m thffi port` leaves those unreported."""
    return os.path.isfile(os.path.join(folder, MANIFEST))
