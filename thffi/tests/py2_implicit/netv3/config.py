raise ImportError('netv3/config.py: netv3 imports the top-level config')
