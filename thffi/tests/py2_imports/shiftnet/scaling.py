from helper import register


@register('scale')
def scale(row, factor):
    if isinstance(factor, basestring):
        factor = int(factor)
    return map(lambda x: x * factor, row)
