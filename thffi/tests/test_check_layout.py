"""THFFI_CHECK_LAYOUT=1: C that takes THFloatTensor_data of a tensor that
is not contiguous (`x.t()`), without having read its strides or made it
contiguous, and would index it as if contiguous (a bug of 2018 code, which
passed `permute(...)` results to RoI pooling), gets a RuntimeWarning naming
the function, the argument, its sizes and strides; once per function and
argument.  C that reads the strides first (_stride, _isContiguous,
_newContiguous) gets none, and neither does any call without the variable.
The variable is read when the extension is imported: each case runs in a
process of its own (thffi/tests/legacy_data's C)."""

import json
import os
import subprocess
import sys
import textwrap

from support import ROOT

SCRIPT = textwrap.dedent('''\
    import json, sys, warnings
    import torch
    import _thffi_legacy_data.legacy_data as lib

    x = torch.arange(12.0).view(3, 4)
    t = x.t()
    report = []


    def run(name, *args):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter(sys.argv[1])  # 'always', or 'error'
            try:
                value = getattr(lib, name)(*args)
            except RuntimeError as exc:
                value = 'RuntimeError: ' + str(exc)
        report.append([name, value, [[str(w.message), w.category.__name__,
                                      w.filename == __file__] for w in seen]])


    run('sum_as_contiguous', t)
    run('sum_as_contiguous', t)
    run('sum_after_stride', t)
    run('sum_of_contiguous_copy', t)
    run('sum_after_is_contiguous', t)
    run('sum_two_as_contiguous', x, x)
    run('sum_two_as_contiguous', t, x[:, ::2])
    run('sum_two_as_contiguous', t, x[:, ::2])
    run('sum_two_as_contiguous', torch.empty(0, 4).t(), x[:1].t())
    print(json.dumps(report))
    ''')


def _run(legacy_data, tmp_path, check, action='always'):
    script = tmp_path / 'check.py'
    script.write_text(SCRIPT)
    folder = os.path.dirname(os.path.dirname(os.path.dirname(legacy_data.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([folder, ROOT]))
    env.pop('THFFI_CHECK_LAYOUT', None)
    if check is not None:
        env['THFFI_CHECK_LAYOUT'] = check
    out = subprocess.run([sys.executable, str(script), action], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _message(function, position, name, size, stride):
    return ('%s: argument %d (%s) is not contiguous (size %s, stride %s) and the C code took '
            'THFloatTensor_data of it without reading its strides (_stride, _isContiguous, '
            '_newStrideOf) or making it contiguous (_newContiguous): indexed as if contiguous, '
            'it reads the wrong elements. Pass %s.contiguous(), or make the C use the strides '
            '(THFFI_CHECK_LAYOUT=1 warns once per function and argument)'
            % (function, position, name, size, stride, name))


def test_data_of_a_transposed_argument_warns_once_per_function_and_argument(legacy_data,
                                                                            tmp_path):
    report = _run(legacy_data, tmp_path, '1')
    warned = [[name, [w[0] for w in seen]] for name, _, seen in report]
    assert warned == [
        ['sum_as_contiguous', [_message('sum_as_contiguous', 1, 't', '(4, 3)', '(1, 4)')]],
        ['sum_as_contiguous', []],   # once
        ['sum_after_stride', []],    # the strides read first
        ['sum_of_contiguous_copy', []],
        ['sum_after_is_contiguous', []],
        ['sum_two_as_contiguous', []],  # contiguous arguments
        ['sum_two_as_contiguous', [_message('sum_two_as_contiguous', 1, 'a', '(4, 3)', '(1, 4)'),
                                   _message('sum_two_as_contiguous', 2, 'b', '(3, 2)', '(4, 2)')]],
        ['sum_two_as_contiguous', []],
        ['sum_two_as_contiguous', []],  # no elements, or one column: no layout to break
    ]
    # A RuntimeWarning pointing at the line that called the function.
    assert all(w[1:] == ['RuntimeWarning', True] for _, _, seen in report for w in seen)
    # The memory is passed as it is: the warning does not change results.
    values = [value for _, value, _ in report]
    assert values[0] == values[1] == 66.0 and values[2] == values[3] == 66.0
    assert values[4].startswith('RuntimeError: sum_after_is_contiguous: invalid argument 1: '
                                't must be contiguous')


def test_without_the_variable_nothing_warns(legacy_data, tmp_path):
    for check in (None, '0'):
        report = _run(legacy_data, tmp_path, check)
        assert [seen for _, _, seen in report] == [[]] * 9


def test_warnings_made_errors_fail_the_call(legacy_data, tmp_path):
    report = _run(legacy_data, tmp_path, '1', 'error')
    assert report[0][1] == 'RuntimeError: ' + _message('sum_as_contiguous', 1, 't', '(4, 3)',
                                                       '(1, 4)')
    assert report[1][1] == 66.0  # the next call works, and the warning was given
