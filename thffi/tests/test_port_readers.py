"""port/readers/: the commands build files hold, read as their own tools
read them (make -n for Makefiles, bashlex for make.sh, Python's ast for
build.py), and the writers that rewrite them through the same reading.
The build files are ours, in the 2017-2018 idiom."""

import shutil
import textwrap

import pytest

from support import write_files as _write
from thffi.port import port, readers
from thffi.port.make import rewrite_make

needs_make = pytest.mark.skipif(shutil.which('make') is None, reason='GNU make not installed')
NVCC13 = frozenset({75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121})

# A 2018 Makefile as people wrote them: the card in a comment after the
# flag, a variable used before it is defined, a $(shell ...) and a backtick
# command for torch's folders, the command with its flags in a variable, a
# pattern rule, and the flags in an included makefile.
KERNELS_MAKEFILE = '''\
    include config.mk

    NVCC = nvcc -std=c++11
    ARCH = -arch=sm_61   # GTX 1080
    SRC_DIR = src
    OBJ = $(SRC_DIR)/interpolate_cuda_kernel.o

    all: $(OBJ)

    # The kernels: one object per .cu
    $(SRC_DIR)/interpolate_cuda_kernel.o: $(SRC_DIR)/interpolation_cuda_kernel.cu
    \t@echo "Compiling $< by nvcc..."
    \t$(NVCC) -c -o $@ $< -x cu -Xcompiler -fPIC $(ARCH) $(FLAGS) -I$(TF_INC) `echo -DWITH_CUDA`

    %.cu.o: %.cu
    \t$(NVCC) -c -o $@ $< $(ARCH)

    TF_INC = $(shell echo /opt/th/include)
    FLAGS = $(DEFINES) -O2
    '''
CONFIG_MK = '''\
    # Set here what your machine needs.
    DEFINES = -DGOOGLE_CUDA=1 \\
              -DTHREADS=512
    '''
MADE = ['nvcc', '-std=c++11', '-c', '-o', 'src/interpolate_cuda_kernel.o',
        'src/interpolation_cuda_kernel.cu', '-x', 'cu', '-Xcompiler', '-fPIC', '-arch=sm_61',
        '-DGOOGLE_CUDA=1', '-DTHREADS=512', '-O2', '-I/opt/th/include', '`echo -DWITH_CUDA`']


def _kernels(folder):
    _write(folder, {'Makefile': KERNELS_MAKEFILE, 'config.mk': CONFIG_MK,
                    'src/interpolation_cuda_kernel.cu': '', 'src/other.cu': ''})
    return str(folder / 'Makefile'), (folder / 'Makefile').read_text()


@needs_make
def test_a_makefile_is_read_as_make_expands_it(tmp_path):
    path, text = _kernels(tmp_path)
    commands = readers.commands(path, text, 'src/interpolate_cuda_kernel.o')
    assert [(c.file, c.line, c.args, c.cwd, c.read_as_text) for c in commands] == [
        (path, 13, MADE, '', None)]
    command = commands[0]
    assert command.sources == ['src/interpolation_cuda_kernel.cu']
    assert command.output == 'src/interpolate_cuda_kernel.o'
    # The flags compiling it again takes: the comment is not among them;
    # the backtick word goes (the shell would run it), the others stay.
    assert command.flags == ['-std=c++11', '-x', 'cu', '-Xcompiler', '-fPIC', '-arch=sm_61',
                             '-DGOOGLE_CUDA=1', '-DTHREADS=512', '-O2',
                             '-I/opt/th/include']
    # A pattern rule, for the file asked about.
    other = readers.commands(path, text, 'src/other.cu.o')
    assert [c.args for c in other] == [['nvcc', '-std=c++11', '-c', '-o', 'src/other.cu.o',
                                        'src/other.cu', '-arch=sm_61']]
    assert readers.commands(path, text, 'src/missing.o') == []


def test_a_makefile_read_as_text_where_make_cannot_answer(tmp_path, monkeypatch):
    path, text = _kernels(tmp_path)
    monkeypatch.setenv('PATH', str(tmp_path / 'bin'))  # no make
    commands = readers.commands(path, text, 'src/interpolate_cuda_kernel.o')
    assert len(commands) == 1
    command = commands[0]
    # The text gives what make would: the comment gone, the late variables
    # and the included ones expanded, the backtick command one word; what
    # only running it says ($(shell ...)) stays as written.
    assert command.args == MADE[:-2] + ['-I$(shell echo /opt/th/include)', MADE[-1]]
    assert (command.line, command.read_as_text) == (13, 'make is not installed')
    assert readers.commands(path, text, 'src/interpolate_cuda_kernel.o', ask_make=False)[0] \
        .read_as_text == 'not asked'


@needs_make
def test_the_makefile_of_a_recursive_make_is_asked_in_its_folder(tmp_path):
    _write(tmp_path, {
        'Makefile': '''\
            all:
            \t$(MAKE) -C kernels
            ''',
        'kernels/Makefile': '''\
            roi.cu.o: roi.cu
            \tnvcc -c roi.cu -o roi.cu.o -arch=sm_52
            ''',
        'kernels/roi.cu': ''})
    command = readers.command_building(str(tmp_path / 'kernels/roi.cu.o'), str(tmp_path))
    assert (command.file, command.line, command.folder, command.read_as_text) == (
        str(tmp_path / 'kernels/Makefile'), 2, str(tmp_path / 'kernels'), None)
    assert command.args[-1] == '-arch=sm_52'


def test_nvcc_flags_in_a_variable_holding_the_command_and_in_an_included_makefile(tmp_path):
    _kernels(tmp_path)
    (tmp_path / 'config.mk').write_text(textwrap.dedent('''\
        DEFINES = -DGOOGLE_CUDA=1 --expt-extended-lambda
        CXXFLAGS = -std=c++11
        '''))
    new, findings = rewrite_make(textwrap.dedent(KERNELS_MAKEFILE), 'Makefile', NVCC13)
    assert 'NVCC = nvcc -std=c++17\n' in new
    assert 'ARCH = $(shell python -m thffi --arch-flags)   # GTX 1080\n' in new
    # port reads the repository's makefiles together: config.mk's DEFINES
    # reach nvcc through Makefile's FLAGS; its CXXFLAGS are g++'s.
    diff, findings, _, changed = port(str(tmp_path), write=True)
    assert sorted(changed) == ['Makefile', 'config.mk']
    assert (tmp_path / 'config.mk').read_text() == textwrap.dedent('''\
        DEFINES = -DGOOGLE_CUDA=1 --extended-lambda
        CXXFLAGS = -std=c++11
        ''')
    assert [(f.path, f.line) for f in findings if f.path == 'config.mk'] == [('config.mk', 1)]


# A 2018 repository whose scripts have no .sh: the README runs `bash
# install.bash` (no shebang) and `./configure_cuda` (a bash shebang), the
# Makefile's recipe `sh tools/compile_kernels`, build.py
# `os.system('cd src; bash kernels')`; `notes` holds an nvcc line nobody runs.
SCRIPTS_BY_ANY_NAME = {
    'README.md': '''\
        # Blur

        Set the CUDA path, then compile the kernels and the extension:

            ./configure_cuda
            bash install.bash

        Or `make`, which builds everything.
        ''',
    'install.bash': '''\
        TORCH=$(python -c "import os, torch; print(os.path.dirname(torch.__file__))")
        cd src
        nvcc -c -o blur_kernel.o blur_kernel.cu -x cu -Xcompiler -fPIC -arch=sm_52 \\
            -I $TORCH/lib/include/TH -I $TORCH/lib/include/THC
        cd ..
        python build.py
        ''',
    'configure_cuda': '''\
        #!/bin/bash
        nvcc -c -o src/probe.o src/probe.cu -arch=sm_35
        ''',
    'Makefile': '''\
        all:
        \tsh tools/compile_kernels
        \tpython build.py
        ''',
    'tools/compile_kernels': '''\
        cd src && nvcc -c -o pool_kernel.o pool_kernel.cu -arch=sm_61
        ''',
    'build.py': '''\
        import os
        from torch.utils.ffi import create_extension

        os.system('cd src; bash kernels')
        ffi = create_extension('_ext.blur', headers=['src/blur.h'], sources=['src/blur.c'],
                               extra_objects=['src/blur_kernel.o'], relative_to=__file__)
        ffi.build()
        ''',
    'src/kernels': 'nvcc -c -o shift_kernel.o shift_kernel.cu -arch=sm_30\n',
    'notes': 'nvcc -c -o old.o old.cu -arch=sm_20\n',
    'src/blur_kernel.cu': '', 'src/blur.h': '', 'src/blur.c': '',
}


def test_the_scripts_readmes_and_build_files_run_are_read_whatever_their_names(tmp_path):
    from thffi.port.readers.route import readmes, route
    _write(tmp_path, SCRIPTS_BY_ANY_NAME)
    real = str(tmp_path.resolve())
    runs = route(readmes([str(tmp_path)]),
                 [(str(tmp_path / 'Makefile'), 'make'), (str(tmp_path / 'build.py'), 'py')])
    assert {k[len(real) + 1:]: v for k, v in runs.items()} == {
        'configure_cuda': 'sh', 'install.bash': 'sh', 'build.py': 'py', 'Makefile': 'make',
        'tools/compile_kernels': 'sh', 'src/kernels': 'sh'}
    # What runs a file decides how it is read, then its shebang; its name
    # says nothing (notes is read by nobody).
    assert readers.kind(str(tmp_path / 'install.bash')) is None
    assert readers.kind(str(tmp_path / 'install.bash'), runs) == 'sh'
    assert readers.kind(str(tmp_path / 'configure_cuda')) == 'sh'
    assert readers.kind(str(tmp_path / 'notes'), runs) is None
    _, findings, _, changed = port(str(tmp_path), write=True)
    assert sorted(changed) == ['build.py', 'configure_cuda', 'install.bash', 'src/kernels',
                               'tools/compile_kernels']
    installed = (tmp_path / 'install.bash').read_text()
    assert '-arch=sm_52' not in installed and '$(python -m thffi --arch-flags)' in installed
    assert '$(python -m thffi --includes)' in installed
    for name, old in (('configure_cuda', 'sm_35'), ('tools/compile_kernels', 'sm_61'),
                      ('src/kernels', 'sm_30')):
        assert old not in (tmp_path / name).read_text()
    assert (tmp_path / 'notes').read_text() == 'nvcc -c -o old.o old.cu -arch=sm_20\n'
    assert {f.path for f in findings if 'architecture' in f.message} >= {
        'install.bash', 'configure_cuda', 'tools/compile_kernels', 'src/kernels'}
    # A second run changes nothing.
    assert port(str(tmp_path), write=True)[3] == []


def test_the_builder_finds_the_step_meant_to_build_an_object_in_a_script_by_any_name(tmp_path):
    from thffi.builder.configure import meant_command
    _write(tmp_path, SCRIPTS_BY_ANY_NAME)
    (tmp_path / '.#install.bash').symlink_to('nowhere')  # an editor's lock file: no build file
    found = meant_command(str(tmp_path / 'src/blur_kernel.o'), str(tmp_path))
    assert found is not None
    path, command, folder = found
    assert (path, command.line, folder) == (str(tmp_path / 'install.bash'), 3,
                                            str(tmp_path / 'src'))
    assert command.args[:5] == ['nvcc', '-c', '-o', 'blur_kernel.o', 'blur_kernel.cu']
