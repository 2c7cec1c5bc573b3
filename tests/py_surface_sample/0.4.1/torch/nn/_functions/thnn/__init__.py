_all_functions = []
