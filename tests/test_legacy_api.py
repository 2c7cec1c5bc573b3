"""docs/legacy_api_survey.md, what ffi-era projects call, against thffi's
headers (tools/check_legacy_api.py)."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))
import check_legacy_api  # noqa: E402

SURVEY = os.path.join(ROOT, 'docs', 'legacy_api_survey.md')


def test_survey_holds_against_thffis_headers():
    out = subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'check_legacy_api.py')],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r'^names: 141 entries, \d+ provided by thffi', out.stdout, re.M)
    assert re.search(r'^headers: 12 entries, \d+ provided by thffi', out.stdout, re.M)


def _edited_survey(tmp_path, name, edit):
    """A copy of the survey with the row of `name` passed through edit."""
    with open(SURVEY) as f:
        lines = f.read().split('\n')
    row = next(i for i, line in enumerate(lines) if line.startswith('| `%s` ' % name))
    lines[row] = edit(lines[row])
    path = tmp_path / 'survey.md'
    path.write_text('\n'.join(lines))
    return str(path)


def _problems(path, update=False):
    with open(os.devnull, 'w') as quiet:
        return check_legacy_api.check(update=update, path=path, out=quiet)


def test_checker_wants_a_reason_for_what_two_repositories_use(tmp_path):
    missing = lambda row: re.sub(r'\| yes( *)\|', r'| no \1|',  # noqa: E731
                                 row.replace('THCState', 'THCStateX'))
    path = _edited_survey(tmp_path, 'THCState', missing)
    assert _problems(path) == [
        'name THCStateX: used by 34 repositories, not provided by thffi and no reason given']


def test_checker_finds_a_stale_provided_column_and_update_fixes_it(tmp_path):
    stale = lambda row: re.sub(r'\| yes( *)\|', r'| no \1|', row)  # noqa: E731
    path = _edited_survey(tmp_path, 'THLongTensor_copyCuda', stale)
    assert _problems(path) == [
        "name THLongTensor_copyCuda: the table says provided=no, thffi's headers say yes "
        "(run python tools/check_legacy_api.py --update)"]
    assert _problems(path, update=True) == [] and _problems(path) == []
    with open(path) as f, open(SURVEY) as g:
        assert f.read() == g.read()


# The extensions the test suite builds with legacy-style C, C++ and CUDA:
# between them they call every survey entry thffi provides.
TOURS = [os.path.join(ROOT, 'thffi', 'tests', d) for d in ('th_test', 'thc_test', 'legacy_c',
                                                          'th_blas')]


def _tour_text(tmp_path):
    """The tours' sources as written, and their C and C++ files once
    preprocessed with thffi's include path (where THTensor_(NAME) becomes
    THFloatTensor_NAME...)."""
    from thffi import builder
    flags = (['-I' + d for d in builder.include_dirs()]
             + ['-I' + check_legacy_api._cuda_includes(str(tmp_path))])
    text = []
    for tour in TOURS:
        for folder, _, files in os.walk(tour):
            for name in sorted(files):
                path = os.path.join(folder, name)
                if not name.endswith(('.c', '.h', '.cpp', '.cu')):
                    continue
                with open(path) as f:
                    text.append(f.read())
                if name.endswith(('.c', '.cpp')):
                    cmd = (['gcc', '-E', '-x', 'c++' if name.endswith('.cpp') else 'c', path,
                            '-I' + folder, '-I' + tour] + flags)
                    out = subprocess.run(cmd, capture_output=True, text=True)
                    assert out.returncode == 0, out.stderr
                    text.append(out.stdout)
    return '\n'.join(text)


def test_every_provided_entry_is_called_by_the_test_extensions(tmp_path):
    _, tables = check_legacy_api.read_survey()
    text = _tour_text(tmp_path)
    unused = []
    for section, first in (('Names', 'Name'), ('Headers', 'Header')):
        table = tables[section]
        col_name, col_prov = table.column(first), table.column('Provided')
        for row in table.rows:
            entry = row[col_name].strip('`')
            generic = re.match(r'^(\w+_)\(NAME\)$', entry)
            word = (re.escape(generic.group(1) + '(') if generic
                    else re.escape(entry) + r'(?!\w)')
            if row[col_prov] == 'yes' and not re.search(r'(?<!\w)' + word, text):
                unused.append(entry)
    assert unused == []
