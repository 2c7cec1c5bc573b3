# shiftnet: shifts and scales rows
import helper
from layers import *
for name in ['scaling']:
    exec('from %s import *' % name)

OPS = helper.registered()
