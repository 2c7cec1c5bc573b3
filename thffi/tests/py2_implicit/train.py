# Pools, shifts and scales one row, and prints each result.
from __future__ import print_function

import layers
import netv3
import poolnet

row = [1, 2, 3, 4, 5]
print('pooled:', poolnet.pooled(row))
print('shifted:', layers.shift(row, 2))
print('scaled:', layers.scale(row, 3))
print('width:', netv3.width())
