"""The library where torch.utils.ffi put it, _ext/<name>/_<name>.so: 2018
scripts move or copy that file after `python build.py`, name it as a
Makefile target and list it in package_data.  Behind that name a rebuild
still loads in a process that loaded the previous build."""

import os
import re
import subprocess
import sys
import textwrap

import pytest

from support import hooked_env, write_files

SCALE = {
    'src/scale.h': '''\
        int scale_forward(THFloatTensor *input, THFloatTensor *output, float factor);
        ''',
    'src/scale.c': '''\
        #include <TH/TH.h>

        int scale_forward(THFloatTensor *input, THFloatTensor *output, float factor)
        {
          THFloatTensor_resizeAs(output, input);
          THFloatTensor_mul(output, input, factor);
          return 1;
        }
        ''',
    'build.py': '''\
        import os
        from torch.utils.ffi import create_extension

        this_file = os.path.dirname(__file__)

        ffi = create_extension(
            '_ext.scale',
            headers=['src/scale.h'],
            sources=['src/scale.c'],
            relative_to=__file__,
            with_cuda=False
        )

        if __name__ == '__main__':
            ffi.build()
        ''',
}


@pytest.mark.slow  # deselected by default (conftest.py)
def test_a_make_sh_moving_the_library_builds_twice(tmp_path):
    # The package goes where the model's code imports it from: its Python
    # files copied, the library moved, as make.sh files of 2018 did.
    write_files(tmp_path, dict(SCALE, **{
        'make.sh': '''\
            #!/usr/bin/env bash
            python build.py
            mkdir -p model/_ext/scale
            touch model/__init__.py model/_ext/__init__.py
            cp _ext/scale/*.py model/_ext/scale/
            mv _ext/scale/_scale.so model/_ext/scale/
            ''',
        'check.py': '''\
            import torch
            from model._ext import scale

            out = torch.FloatTensor()
            scale.scale_forward(torch.ones(3), out, 2.5)
            print(out.tolist())
            ''',
    }))
    env = hooked_env(tmp_path)
    for _ in range(2):
        made = subprocess.run(['bash', 'make.sh'], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=600)
        assert made.returncode == 0 and 'cannot stat' not in made.stderr, made.stderr
        assert (tmp_path / 'model/_ext/scale/_scale.so').is_file()
        assert not (tmp_path / '_ext/scale/_scale.so').exists()
        run = subprocess.run([sys.executable, 'check.py'], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and run.stdout == '[2.5, 2.5, 2.5]\n', run.stderr


def test_a_rebuild_loads_in_the_process_that_loaded_the_first(tmp_path):
    write_files(tmp_path, SCALE)
    code = '''\
        import importlib, runpy
        import torch

        runpy.run_path('build.py', run_name='__main__')
        from _ext import scale
        first = scale._ffi
        out = torch.FloatTensor()
        scale.scale_forward(torch.ones(2), out, 2.0)
        print(out.tolist())
        with open('src/scale.c') as f:
            text = f.read()
        with open('src/scale.c', 'w') as f:
            f.write(text.replace('factor);', 'factor + 1);'))
        runpy.run_path('build.py', run_name='__main__')
        importlib.reload(scale)
        scale.scale_forward(torch.ones(2), out, 2.0)
        print(out.tolist(), scale._ffi is not first)
        '''
    run = subprocess.run([sys.executable, '-c', textwrap.dedent(code)], cwd=tmp_path,
                         env=hooked_env(tmp_path), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    printed = [line for line in run.stdout.splitlines() if line.startswith('[')]
    assert printed == ['[2.0, 2.0]', '[3.0, 3.0] True'], run.stdout
    # One library file under the legacy name, beside the one __init__.py
    # loads (the first build's may stay too: the process had loaded it).
    init = (tmp_path / '_ext/scale/__init__.py').read_text()
    module = re.search(r"_module = __name__ \+ '\.(\w+)'", init).group(1)
    assert os.path.samefile(tmp_path / '_ext/scale/_scale.so',
                            next((tmp_path / '_ext/scale').glob(module + '.*so')))
