import helper


@helper.register('shift')
def shift(row, by):
    if by < 0:
        raise ValueError, 'shift: by must be >= 0'
    return row[by:] + row[:by]
