def shift(row, by):
    return row[by:] + row[:by]
