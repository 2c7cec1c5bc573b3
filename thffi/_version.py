"""thffi's version: the distribution's (pyproject.toml reads it here) and
the name of its shared TH library (libthffi-<version>.so)."""

__version__ = '0.1.0'
