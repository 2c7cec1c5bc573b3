# netv3: written for Python 3's imports
from .blocks import width
