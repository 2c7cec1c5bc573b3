import config


def width():
    return config.WIDTH * 2
