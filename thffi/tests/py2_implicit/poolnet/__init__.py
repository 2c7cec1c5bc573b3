# poolnet: pools rows by windows (2018: Python 2.7 and 3.5 alike, it said)
from pooling import *
