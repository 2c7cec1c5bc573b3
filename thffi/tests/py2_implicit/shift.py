raise ImportError('the top-level shift.py: layers/ imports its own')
