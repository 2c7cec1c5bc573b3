"""scipy.misc's image functions as SciPy 1.0 had them (imread, imsave,
imresize, toimage, fromimage, bytescale), over Pillow, as SciPy 1.0 ran
them: SciPy 1.3 removed them, and 2018 code (`from scipy.misc import
imresize`) gets these instead, from `python -m thffi port` (a rename,
toolchain/pyremoved.py's rows) and `python -m thffi run` (given back).
Written from SciPy 1.0's documented behaviour:

- bytescale: anything but uint8 is mapped linearly from [cmin, cmax]
  (the data's own range by default) to [low, high], rounded to uint8; a
  uint8 array is returned as it is.
- toimage: a 2-D array is a grey image ('L', bytescaled; 'P' with a grey or
  the given palette; 'F' and 'I' unscaled 32-bit; '1' thresholded by high),
  a 3-D one with a dimension of 3 or 4 (channel_axis, else the first 3, else
  the first 4) an 'RGB'/'YCbCr' or 'RGBA'/'CMYK' image, bytescaled.
- fromimage: the array of an image, a palette image ('P') given as RGB (RGBA
  with transparency), a 1-bit one as 'L'; flatten: as float32 grey ('F').
- imresize: toimage(arr, mode=mode) resized to size, an int (a percentage),
  a float (a fraction) or (rows, cols), with interp 'nearest', 'lanczos',
  'bilinear' (the default), 'bicubic' or 'cubic'; returned as fromimage's.

Pillow is imported on first use: without it each function raises an
ImportError naming it."""

import numpy as np

# imresize's interp -> Pillow's resampling filter, by the number Pillow has
# kept for it since PIL (NEAREST, LANCZOS, BILINEAR, BICUBIC).
_FILTERS = {'nearest': 0, 'lanczos': 1, 'bilinear': 2, 'bicubic': 3, 'cubic': 3}
_MODES = "toimage: mode must be one of 'L', 'P', 'F', 'I', '1' for a 2-D array, " \
    "'RGB', 'RGBA', 'YCbCr', 'CMYK' for a 3-D one; got %r"


def _image(function):
    """Pillow's Image module, or an ImportError naming Pillow."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError('scipy.misc.%s: SciPy 1.0 ran it over Pillow, which is not '
                          'installed here: pip install Pillow' % function) from None
    return Image


def bytescale(data, cmin=None, cmax=None, high=255, low=0):
    """data (an array) as uint8: [cmin, cmax] (its own range by default)
    mapped linearly onto [low, high], clipped and rounded; uint8 data as
    it is."""
    data = np.asarray(data)
    if data.dtype == np.uint8:
        return data
    if high > 255:
        raise ValueError('bytescale: high must be <= 255, got %r' % (high,))
    if low < 0:
        raise ValueError('bytescale: low must be >= 0, got %r' % (low,))
    if high < low:
        raise ValueError('bytescale: high must be >= low, got high=%r, low=%r' % (high, low))
    cmin = data.min() if cmin is None else cmin
    cmax = data.max() if cmax is None else cmax
    spread = cmax - cmin
    if spread < 0:
        raise ValueError('bytescale: cmax must be >= cmin, got cmin=%r, cmax=%r' % (cmin, cmax))
    scale = float(high - low) / (spread if spread else 1)
    scaled = (data - cmin) * scale + low
    return (scaled.clip(low, high) + 0.5).astype(np.uint8)


def toimage(arr, high=255, low=0, cmin=None, cmax=None, pal=None, mode=None,
            channel_axis=None):
    """A Pillow image of the array arr (see the module's docstring)."""
    Image = _image('toimage')
    data = np.asarray(arr)
    if np.iscomplexobj(data):
        raise ValueError('toimage: arr must be real, got a complex array')
    shape = data.shape
    if not (data.ndim == 2 or data.ndim == 3 and (3 in shape or 4 in shape)):
        raise ValueError('toimage: arr must be 2-D, or 3-D with a dimension of 3 or 4 '
                         'channels; got shape %r' % (shape,))
    if data.ndim == 2:
        size = (shape[1], shape[0])  # Pillow's (width, height)
        if mode == 'F':
            return Image.frombytes('F', size, data.astype(np.float32).tobytes())
        if mode in (None, 'L', 'P'):
            image = Image.frombytes('L', size, bytescale(data, cmin, cmax, high, low).tobytes())
            if pal is None and mode == 'P':
                pal = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
            if pal is not None:  # the image becomes a palette image ('P')
                image.putpalette(np.asarray(pal, dtype=np.uint8).tobytes())
            return image
        if mode == '1':
            return Image.frombytes('1', size, (data > high).tobytes())
        if mode != 'I':
            raise ValueError(_MODES % (mode,))
        cmin = data.min() if cmin is None else cmin
        cmax = data.max() if cmax is None else cmax
        scaled = (data * 1.0 - cmin) * (high - low) / (cmax - cmin) + low
        return Image.frombytes('I', size, scaled.astype(np.uint32).tobytes())
    if channel_axis is None:
        channel_axis = shape.index(3) if 3 in shape else shape.index(4)
    channels = shape[channel_axis]
    if channels not in (3, 4):
        raise ValueError('toimage: the channel axis %d has %d entries, not 3 or 4'
                         % (channel_axis, channels))
    mode = mode or ('RGB' if channels == 3 else 'RGBA')
    if mode not in ('RGB', 'RGBA', 'YCbCr', 'CMYK'):
        raise ValueError(_MODES % (mode,))
    if (channels == 3) != (mode in ('RGB', 'YCbCr')):
        raise ValueError('toimage: mode %r takes %d channels, arr has %d'
                         % (mode, 3 if mode in ('RGB', 'YCbCr') else 4, channels))
    pixels = np.moveaxis(bytescale(data, cmin, cmax, high, low), channel_axis, 2)
    return Image.frombytes(mode, (pixels.shape[1], pixels.shape[0]),
                           np.ascontiguousarray(pixels).tobytes())


def fromimage(im, flatten=False, mode=None):
    """The array of the Pillow image im (see the module's docstring)."""
    Image = _image('fromimage')
    if not isinstance(im, Image.Image):
        raise TypeError('fromimage: im must be a PIL image, got %s' % type(im).__name__)
    if mode is not None:
        if mode != im.mode:
            im = im.convert(mode)
    elif im.mode == 'P':  # the palette's colours, not its indices
        im = im.convert('RGBA' if 'transparency' in im.info else 'RGB')
    if flatten:
        im = im.convert('F')
    elif im.mode == '1':
        im = im.convert('L')
    return np.array(im)


def imread(name, flatten=False, mode=None):
    """The array of the image file name (a path or a file object)."""
    return fromimage(_image('imread').open(name), flatten=flatten, mode=mode)


def imsave(name, arr, format=None):
    """Saves arr as an image file (bytescaled, as toimage makes it; a 3-D
    array with its channels last), in format (by name's suffix if None)."""
    image = toimage(arr, channel_axis=2)
    if format is None:
        image.save(name)
    else:
        image.save(name, format)


def imresize(arr, size, interp='bilinear', mode=None):
    """arr (as toimage(arr, mode=mode) makes it) resized to size: an int, a
    percentage of the size; a float, a fraction of it; or (rows, cols).
    Returns the resized image's array (uint8 where the image is bytescaled)."""
    _image('imresize')
    if interp not in _FILTERS:
        raise ValueError('imresize: interp must be one of %s, got %r'
                         % (', '.join(map(repr, _FILTERS)), interp))
    image = toimage(arr, mode=mode)
    if isinstance(size, (int, np.signedinteger)) and not isinstance(size, bool):
        size = (np.array(image.size) * (size / 100.0)).astype(int)
    elif isinstance(size, (float, np.floating)):
        size = (np.array(image.size) * size).astype(int)
    else:
        size = (size[1], size[0])
    size = tuple(int(n) for n in size)
    return fromimage(image.resize(size, resample=_FILTERS[interp]))
