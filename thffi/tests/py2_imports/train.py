# Runs shiftnet on one row and prints what it computed (Python 2.7).
import sys

import helper
import shiftnet

row = [1, 2, 3, 4]
print 'helper:', helper.NAME
print 'ops:', ', '.join(sorted(shiftnet.OPS))
print 'shifted:', shiftnet.shift(row, 1)
print 'scaled:', shiftnet.scale(row, '2')
print >>sys.stderr, 'done'
