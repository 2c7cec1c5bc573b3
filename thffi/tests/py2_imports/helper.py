# The training script's helper, not shiftnet's.
NAME = 'the top-level helper'
