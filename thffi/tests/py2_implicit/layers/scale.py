def scale(row, factor):
    return [x * factor for x in row]
