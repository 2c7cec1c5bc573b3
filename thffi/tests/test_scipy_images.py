"""scipy.misc's image functions, which SciPy 1.3 removed, given back with
SciPy 1.0's meaning over Pillow (thffi/runtime/scipy_images.py): a 2018
script (ours) that resizes with `from scipy.misc import imresize` runs
through `thffi run` and after `port --write`, computing what SciPy 1.0
computed; without Pillow the error names it."""

import os
import subprocess
import sys

import pytest

from support import installed_once, ROOT, write_files
from thffi.port import port

# Resizes a 2x3 uint8 image as a 2018 data loader did.
SCRIPT = '''\
    import numpy as np
    from scipy.misc import imresize, bytescale

    image = np.array([[10, 20, 30], [40, 50, 60]], dtype=np.uint8)
    print(imresize(image, (4, 6), interp='nearest').tolist())
    print(imresize(image, 50, interp='nearest').tolist())
    print(imresize(np.array([[0.0, 1.0], [2.0, 4.0]]), 1.0, interp='nearest').tolist())
    print(bytescale(np.array([-1.0, 0.0, 3.0])).tolist())
    '''
# What SciPy 1.0 gave, worked out by hand.  Pillow's nearest takes for
# output pixel x the input pixel floor((x + 0.5) * in / out): doubling
# repeats each pixel twice; 50% of (3 columns, 2 rows) is (1, 1), input
# pixel (floor(1.5), floor(1.0)) = row 1, column 1: 50.  A float image is
# bytescaled first: v * 255 / 4 + 0.5, truncated (1 -> 64, 2 -> 128), as
# [-1, 0, 3] is, from its own minimum: (v + 1) * 255 / 4 + 0.5.
EXPECTED = ('[[10, 10, 20, 20, 30, 30], [10, 10, 20, 20, 30, 30], '
            '[40, 40, 50, 50, 60, 60], [40, 40, 50, 50, 60, 60]]\n'
            '[[50]]\n'
            '[[0, 64], [128, 255]]\n'
            '[0, 64, 255]\n')


@pytest.fixture(scope='module')
def pillow():
    """A folder to put on PYTHONPATH for Pillow: '' where this Python has
    it; else Pillow installed there by pip, or the test skipped."""
    try:
        import PIL  # noqa: F401
        return ''
    except ImportError:
        pass
    return installed_once(['Pillow'])


def _env(tmp_path, *first):
    return dict(os.environ, PYTHONPATH=os.pathsep.join([f for f in first if f] + [ROOT]),
                THFFI_CACHE_DIR=str(tmp_path / 'cache'))


def test_imresize_computes_what_scipy_1_0_did_under_run_and_after_port(tmp_path, pillow):
    pytest.importorskip('scipy')
    write_files(tmp_path, {'resize.py': SCRIPT})
    env = _env(tmp_path, pillow)
    out = subprocess.run([sys.executable, '-m', 'thffi', 'run', '--', 'python', 'resize.py'],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=300)
    assert (out.returncode, out.stdout) == (0, EXPECTED), out.stderr
    assert 'scipy.misc.imresize is gone since SciPy 1.3' in out.stderr
    port(str(tmp_path), write=True)
    assert ('from thffi.runtime.scipy_images import imresize, bytescale'
            in (tmp_path / 'resize.py').read_text())
    out = subprocess.run([sys.executable, 'resize.py'], cwd=str(tmp_path), env=env,
                         capture_output=True, text=True, timeout=300)
    assert (out.returncode, out.stdout) == (0, EXPECTED), out.stderr


def test_without_pillow_the_error_names_it():
    out = subprocess.run([sys.executable, '-c', '''if True:
        import sys
        sys.modules['PIL'] = None  # as where Pillow is not installed
        import numpy as np
        from thffi.runtime.scipy_images import imresize
        imresize(np.zeros((2, 2), np.uint8), 50)
        '''], env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 1
    assert out.stderr.splitlines()[-1] == (
        'ImportError: scipy.misc.imresize: SciPy 1.0 ran it over Pillow, which is not installed '
        'here: pip install Pillow')

