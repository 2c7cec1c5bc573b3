"""Runs `python -m thffi port --write` over the compatibility corpus
(../shared/CORPUS.md) with two thffi checkouts, say main's and a branch's,
and prints a table comparing what each leaves: files changed, changes made,
lines "left for you", Python 2 files left unconverted, the shell scripts
the rewrite left invalid (`bash -n`) or holding an empty quoted word, and
the PyTorch version port assumed.

    python tools/port_corpus.py BEFORE_THFFI_ROOT AFTER_THFFI_ROOT [--scratch DIR]

Each repository is cloned from its snapshot under /work/.mirror at its
pinned commit (ctcdecode with its KenLM submodule), once, into the scratch
folder; each run ports a fresh copy.  Nothing is built: this measures the
port and its report (the builds are CORPUS.md's levels A to C)."""

import argparse
import os
import re
import shutil
import subprocess
import sys

MIRROR = '/work/.mirror'
CORPUS = [  # owner+name, pinned commit, submodules (path, owner+name, commit)
    ('pytorch+extension-ffi', '931a9ea', ()),
    ('jwyang+faster-rcnn.pytorch', 'f9d984d', ()),
    ('longcw+RoIAlign.pytorch', '55e43db', ()),
    ('multimodallearning+pytorch-mask-rcnn', '809abba', ()),
    ('SeanNaren+warp-ctc', 'ac045b6', ()),
    ('NVIDIA+flownet2-pytorch', '8ee968a', ()),
    ('CharlesShang+DCNv2', 'be7b41a', ()),
    ('fxia22+stn.pytorch', '4886ded', ()),
    ('awni+transducer', '6b37e98', ()),
    ('rusty1s+pytorch_spline_conv', '7b0ec2c', ()),
    ('rusty1s+pytorch_scatter', '7551446', ()),
    ('parlance+ctcdecode', '2d7ae35', (('third_party/kenlm', 'kpu+kenlm', 'cdd7945'),)),
    ('1zb+deformable-convolution-pytorch', '779a928', ()),
    ('erikwijmans+Pointnet2_PyTorch', 'dacbff4', ()),
    ('zhanghang1989+PyTorch-Encoding', 'cebf134', ()),
]


def _git_dir(name):
    repo = os.path.join(MIRROR, name, 'repo')
    return os.path.join(repo, '.git') if os.path.isdir(os.path.join(repo, '.git')) else repo


def _clone(name, commit, into):
    if os.path.isdir(into):
        return
    subprocess.run(['git', 'clone', '-q', '--no-checkout', _git_dir(name), into], check=True)
    subprocess.run(['git', '-C', into, 'checkout', '-q', commit], check=True)


def _port(thffi_root, pristine, work):
    """(report, the copy's shell scripts) after port --write on a copy."""
    if os.path.isdir(work):
        shutil.rmtree(work)
    shutil.copytree(pristine, work, symlinks=True, ignore=shutil.ignore_patterns('.git'))
    env = dict(os.environ, PYTHONPATH=thffi_root)
    ran = subprocess.run([sys.executable, '-m', 'thffi', 'port', '--write', '.'], cwd=work,
                         env=env, capture_output=True, text=True, timeout=1800)
    scripts = [os.path.join(folder, f) for folder, _, files in os.walk(work) for f in files
               if f.endswith('.sh')]
    return ran.returncode, ran.stderr, scripts


def _summary(code, report, scripts):
    lines = report.splitlines()
    changed = re.search(r'changed (\d+)', lines[0]) if lines else None
    left_at = next((i for i, l in enumerate(lines) if l.startswith('left for you')), len(lines))
    left = [l for l in lines[left_at + 1:] if l.startswith('  ')]
    fixed = [l for l in lines[:left_at] if l.startswith('  ')]
    invalid = [s for s in scripts if subprocess.run(['bash', '-n', s],
                                                    capture_output=True).returncode]
    # An argument quoted empty ("" alone, not `objects=""`): what the old
    # rewrite of quoted include flags left.
    empty = [s for s in scripts if re.search(r"""(?<![\w"'=])""(?![\w"'])""",
                                             open(s, errors='replace').read())]
    assumed = re.search(r'PyTorch (0\.\d)', report)
    return {'exit': code, 'files': int(changed.group(1)) if changed else '?',
            'changes': len(fixed), 'left': len(left),
            'python2': sum('Python 2: not parsed' in l or 'Python 2 (' in l and 'not converted'
                           in l for l in left),
            'bad sh': len(invalid) + len(empty), 'version': assumed.group(1) if assumed else '-'}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('before')
    parser.add_argument('after')
    parser.add_argument('--scratch', default='/tmp/thffi-port-corpus')
    options = parser.parse_args()
    rows = []
    for name, commit, submodules in CORPUS:
        pristine = os.path.join(options.scratch, 'pristine', name)
        _clone(name, commit, pristine)
        for path, sub, sub_commit in submodules:
            target = os.path.join(pristine, path)
            if not os.listdir(target) if os.path.isdir(target) else True:
                shutil.rmtree(target, ignore_errors=True)
                _clone(sub, sub_commit, target)
        row = [name.split('+', 1)[1]]
        for label, root in (('before', options.before), ('after', options.after)):
            summary = _summary(*_port(os.path.abspath(root), pristine,
                                      os.path.join(options.scratch, label, name)))
            row.append(summary)
        rows.append(row)
    keys = ['files', 'changes', 'left', 'python2', 'bad sh']
    print('| repository | ' + ' | '.join('%s before/after' % k for k in keys) +
          ' | version assumed |')
    print('|---' * (len(keys) + 2) + '|')
    for name, before, after in rows:
        print('| %s | ' % name + ' | '.join('%s / %s' % (before[k], after[k]) for k in keys) +
              ' | %s |' % after['version'])


if __name__ == '__main__':
    main()
