"""The defaults PyTorch changed after 0.4.1, and what each does to the
numbers of code written for 0.4.1.

tools/py_surface/surface.tsv holds 0.4.1's signatures (read from the
release's own source); today's are the installed PyTorch's
(inspect.signature).  A parameter of a function, method or class is
listed when
- 0.4.1's and today's signatures both have it and their defaults differ in
  value (2 and 2.0 are one value; 0.4.1's default evaluated with torch);
- today's adds it: 0.4.1 computed as one of its values, and today's default
  may be another (grid_sample's align_corners).
Each listed parameter has a verdict:
- row: thffi/toolchain/tensor_behaviours.py's OLD_DEFAULTS or SCALED give
  it 0.x's value: port writes it, thffi run passes it;
- same: today's default computes what 0.4.1 computed (the reason);
- left: the numbers differ and thffi does not give 0.4.1's (the reason);
- error: today's default raises where 0.4.1 computed (the error says so);
- not numbers: what it sets is not a computation's result (loading,
  export, profiling, process groups, tools).
A verdict is VERDICTS' entry for `owner(parameter=)`, else NEW_OPTIONS'
for the parameter's name (options today's callables added whose default
is what 0.4.1 did), else OUTSIDE's for the owner's module.  The tool reads
signatures only: a behaviour that changed with no parameter (TF32 in
cuDNN's convolutions, a module's attribute) is a row found otherwise.

    python tools/py_defaults.py         the table; exit 1 when a listed parameter has no
                                        verdict, or a verdict or row names none listed
    python tools/py_defaults.py --list  also each listed parameter and its verdict
    python tools/py_defaults.py --doc   also rewrite the table in docs/py_defaults.md
"""

import argparse
import ast
import collections
import inspect
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, 'py_surface'))
sys.path.insert(0, HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import extract  # noqa: E402
from py_coverage import _resolve, is_stub, write_doc  # noqa: E402

from thffi.toolchain import tensor_behaviours  # noqa: E402

DOC = os.path.join(ROOT, 'docs', 'py_defaults.md')
_BEGIN, _END = '<!-- py_defaults: begin -->', '<!-- py_defaults: end -->'
VERDICTS_KINDS = ('row', 'same', 'left', 'error', 'not numbers')

# Options today's callables added, each default what 0.4.1 did for any owner.
NEW_OPTIONS = {
    'device': 'a factory keyword: None, the default device, as 0.4.1 made it',
    'dtype': "None: the input's or the default dtype, as 0.4.1",
    'generator': 'the default generator, as 0.4.1 drew from',
    'foreach': 'an implementation: the same update',
    'fused': 'an implementation: the same update',
    'capturable': 'CUDA graph capture: the same update',
    'differentiable': 'autograd through the step: the same update',
    'maximize': 'False: minimizes, as 0.4.1',
    'out': 'None: a new tensor, as 0.4.1',
    'inputs': 'None: every leaf, as 0.4.1',
    'error_if_nonfinite': 'False: clips whatever the norm, as 0.4.1',
}

# Modules (and callables) whose parameters set no computation's result
# (torch.utils.ffi: thffi's, where its hook is installed; its build options).
OUTSIDE = ('torch.utils.ffi', 'torch.jit', 'torch.onnx', 'torch.autograd.profiler', 'torch.distributed',
           'torch.multiprocessing', 'torch.utils.cpp_extension', 'torch.utils.collect_env',
           'torch.utils.file_baton', 'torch.utils.hooks', 'torch.utils.model_zoo',
           'torch.utils.data.dataloader.ExceptionWrapper',
           'torch.backends.cudnn.CudnnModule', 'torch.autograd.gradcheck',
           'torch.autograd.gradgradcheck', 'torch.autograd.function.FunctionMeta',
           'torch.autograd.set_detect_anomaly', 'torch.testing', 'torch.set_printoptions',
           'torch.typename', 'torch._utils', 'torch.cuda.comm', 'torch.cuda.Event',
           'torch.cuda.nccl', 'torch.cuda.device', 'torch.random.fork_rng',
           'torch.nn.parallel.DistributedDataParallel',
           'torch.nn.parallel.DistributedDataParallelCPU', 'torch.save', 'torch.load',
           'torch.nn.utils.spectral_norm.SpectralNorm.compute_weight',
           'torch.nn.AdaptiveLogSoftmaxWithLoss.forward')

_SAME_WHOLE = "None: the whole tensor, as 0.4.1"
# owner(parameter=): (verdict kind, reason).  The rows are OLD_DEFAULTS' and SCALED's.
VERDICTS = {
    'torch.Tensor.norm(p=)': ('same', "'fro' over all elements or one dim is 0.4.1's 2-norm"),
    'torch.norm(p=)': ('same', "'fro' over all elements or one dim is 0.4.1's 2-norm"),
    'torch.norm(dim=)': ('same', _SAME_WHOLE),
    'torch.norm(keepdim=)': ('same', 'False: the dim dropped, as 0.4.1'),
    'torch.Tensor.stft(onesided=)': ('same', 'None: one-sided for real input, as 0.4.1'),
    'torch.stft(onesided=)': ('same', 'None: one-sided for real input, as 0.4.1'),
    'torch.Tensor.stft(return_complex=)': ('error', 'required for real input: today a '
                                                    'RuntimeError says so'),
    'torch.stft(return_complex=)': ('error', 'required for real input: today a RuntimeError '
                                             'says so'),
    'torch.Tensor.stft(align_to_window=)': ('same', "None: the window where 0.4.1 put it"),
    'torch.stft(align_to_window=)': ('same', "None: the window where 0.4.1 put it"),
    'torch.qr(some=)': ('same', "True: the reduced QR, 0.4.1's only one (some is deprecated "
                                "for torch.linalg.qr's mode='reduced')"),
    'torch.Tensor.unique(sorted=)': ('same', "True: 0.4.1's CPU order (sorted=False, a hash "
                                             "set's) was unspecified, its CUDA one sorted"),
    'torch.Tensor.unique(return_counts=)': ('same', 'False: no counts, as 0.4.1'),
    'torch.Tensor.unique(dim=)': ('same', _SAME_WHOLE),
    'torch.autograd.grad(allow_unused=)': ('same', 'None: False, as 0.4.1'),
    'torch.autograd.grad(is_grads_batched=)': ('same', 'False: one gradient, as 0.4.1'),
    'torch.autograd.grad(materialize_grads=)': ('same', 'False: None for an unused input, '
                                                        'as 0.4.1'),
    'torch.cuda.get_rng_state(device=)': ('same', "'cuda': the current device, as 0.4.1's -1"),
    'torch.cuda.set_rng_state(device=)': ('same', "'cuda': the current device, as 0.4.1's -1"),
    'torch.meshgrid(indexing=)': ('same', "None: 'ij' (with a warning), as 0.4.1"),
    'torch.nn.AvgPool2d(divisor_override=)': ('same', 'None: divides by the window, as 0.4.1'),
    'torch.nn.AvgPool3d(divisor_override=)': ('same', 'None: divides by the window, as 0.4.1'),
    'torch.nn.CrossEntropyLoss(label_smoothing=)': ('same', '0.0: none, as 0.4.1'),
    'torch.nn.functional.cross_entropy(label_smoothing=)': ('same', '0.0: none, as 0.4.1'),
    'torch.nn.Embedding(_freeze=)': ('same', 'False: trainable, as 0.4.1'),
    'torch.nn.Embedding.from_pretrained(padding_idx=)': ('same', 'None: no padding index, '
                                                                 'as 0.4.1'),
    'torch.nn.Embedding.from_pretrained(max_norm=)': ('same', 'None: no renormalizing, as '
                                                              '0.4.1'),
    'torch.nn.Embedding.from_pretrained(norm_type=)': ('same', 'unused without max_norm'),
    'torch.nn.Embedding.from_pretrained(scale_grad_by_freq=)': ('same', 'False: unscaled, as '
                                                                        '0.4.1'),
    'torch.nn.EmbeddingBag(_weight=)': ('same', 'None: a new weight, as 0.4.1'),
    'torch.nn.EmbeddingBag(include_last_offset=)': ('same', 'False: offsets as 0.4.1 read '
                                                            'them'),
    'torch.nn.EmbeddingBag(padding_idx=)': ('same', 'None: no padding index, as 0.4.1'),
    'torch.nn.EmbeddingBag.forward(per_sample_weights=)': ('same', 'None: unweighted, as '
                                                                   '0.4.1'),
    'torch.nn.functional.embedding_bag(per_sample_weights=)': ('same', 'None: unweighted, as '
                                                                       '0.4.1'),
    'torch.nn.functional.embedding_bag(include_last_offset=)': ('same', 'False: offsets as '
                                                                        '0.4.1 read them'),
    'torch.nn.functional.embedding_bag(padding_idx=)': ('same', 'None: no padding index, as '
                                                                '0.4.1'),
    'torch.nn.GroupNorm(bias=)': ('same', 'True: the affine bias, as 0.4.1'),
    'torch.nn.LayerNorm(bias=)': ('same', 'True: the affine bias, as 0.4.1'),
    'torch.nn.modules.batchnorm._BatchNorm(bias=)': ('same', 'True: the affine bias, as '
                                                             '0.4.1'),
    'torch.nn.KLDivLoss(log_target=)': ('same', 'False: the target as probabilities, as 0.4.1'),
    'torch.nn.functional.kl_div(log_target=)': ('same', 'False: the target as probabilities, '
                                                        'as 0.4.1'),
    'torch.nn.RNNBase(proj_size=)': ('same', '0: no projection, as 0.4.1'),
    'torch.nn.SmoothL1Loss(beta=)': ('same', "1.0: 0.4.1's fixed threshold"),
    'torch.nn.functional.smooth_l1_loss(beta=)': ('same', "1.0: 0.4.1's fixed threshold"),
    'torch.nn.functional.l1_loss(weight=)': ('same', 'None: unweighted, as 0.4.1'),
    'torch.nn.functional.mse_loss(weight=)': ('same', 'None: unweighted, as 0.4.1'),
    'torch.nn.functional.gumbel_softmax(dim=)': ('same', "-1: 0.4.1's last dimension"),
    'torch.nn.functional.interpolate(antialias=)': ('same', 'False: none, as 0.4.1'),
    'torch.nn.functional.pad(value=)': ('same', 'None: 0 for constant padding, as 0.4.1'),
    'torch.nn.init.dirac_(groups=)': ('same', '1: one group, as 0.4.1'),
    'torch.nn.utils.rnn.pack_padded_sequence(enforce_sorted=)': (
        'same', 'True: sorted input required, as 0.4.1 required it'),
    'torch.nn.utils.rnn.pack_sequence(enforce_sorted=)': (
        'same', 'True: sorted input required, as 0.4.1 required it'),
    'torch.nn.utils.rnn.pad_sequence(padding_side=)': ('same', "'right': pads at the end, as "
                                                               "0.4.1"),
    'torch.distributions.ComposeTransform(cache_size=)': ('same', '0: no cache, as 0.4.1'),
    'torch.optim.Adagrad(eps=)': ('same', '1e-10: the constant 0.4.1 added'),
    'torch.optim.Adam(decoupled_weight_decay=)': ('same', "False: weight decay added to the "
                                                          "gradient, as 0.4.1's Adam"),
    'torch.optim.SGD(lr=)': ('same', "0.001 where 0.4.1 required one: 0.4.1's code gives it"),
    'torch.utils.data.DataLoader(shuffle=)': ('same', 'None: not shuffled, as 0.4.1'),
    'torch.utils.data.DataLoader(collate_fn=)': ('same', 'None: default_collate, as 0.4.1'),
    'torch.utils.data.DataLoader(multiprocessing_context=)': ('same', "None: the platform's, "
                                                                      "as 0.4.1"),
    'torch.utils.data.DataLoader(prefetch_factor=)': ('same', 'how far workers read ahead: '
                                                              'the same batches'),
    'torch.utils.data.DataLoader(persistent_workers=)': ('same', 'False: workers per epoch, '
                                                                 'as 0.4.1'),
    'torch.utils.data.DataLoader(pin_memory_device=)': ('same', "'': the current device"),
    'torch.utils.data.DataLoader(in_order=)': ('same', 'True: batches in order, as 0.4.1'),
    'torch.utils.data.RandomSampler(replacement=)': ('same', 'False: a permutation, as 0.4.1'),
    'torch.utils.data.RandomSampler(num_samples=)': ('same', 'None: every sample, as 0.4.1'),
    'torch.utils.data.distributed.DistributedSampler(shuffle=)': (
        'same', 'True: shuffled by epoch, as 0.4.1'),
    'torch.utils.data.distributed.DistributedSampler(seed=)': (
        'same', '0: seeded by the epoch alone, as 0.4.1'),
    'torch.utils.data.distributed.DistributedSampler(drop_last=)': (
        'same', 'False: padded to equal parts, as 0.4.1'),
    'torch.nn.functional.dropout(training=)': ('row', 'dropout default'),
    'torch.nn.functional.dropout2d(training=)': ('row', 'dropout default'),
    'torch.nn.functional.dropout3d(training=)': ('row', 'dropout default'),
    'torch.nn.functional.grid_sample(align_corners=)': ('row', 'sampling corners'),
    'torch.nn.functional.affine_grid(align_corners=)': ('row', 'sampling corners'),
    'torch.optim.LBFGS(tolerance_grad=)': ('row', 'LBFGS tolerance'),
    'torch.nn.functional.interpolate(recompute_scale_factor=)': ('row', 'scale factor'),
    'torch.nn.Upsample(recompute_scale_factor=)': ('row', 'scale factor'),
    'torch.backends.cudnn.flags(allow_tf32=)': (
        'left', "cuDNN's float32 convolutions in TF32 on Ampere and later (since 1.7; "
                "torch.backends.cudnn.allow_tf32): about 1e-3 relative; 0.4.1 had no TF32"),
    'torch.backends.cudnn.set_flags(_allow_tf32=)': (
        'left', 'the same flag as flags(allow_tf32=)'),
}
# Parameters every owner in a module shares: (module, parameter or '' for
# any): (kind, reason).
SHARED = {
    ('torch.nn', 'reduction'): ('same', "'mean' is 0.4.1's 'elementwise_mean', renamed"),
    ('torch.nn', 'padding_mode'): ('same', "'zeros': zero padding, 0.4.1's only one"),
    ('torch.utils.checkpoint', ''): ('same', "use_reentrant None: reentrant (with a warning), "
                                             "0.4.1's only kind; the others are options of "
                                             "the non-reentrant kind"),
    ('torch.backends.cudnn', ''): ('same', 'a cuDNN choice that keeps float32 results (the '
                                           'TF32 one is listed apart)'),
}


def _signature(value, kind):
    """Today's {parameter: default (inspect's empty where none)}, or None
    where inspect cannot tell (a builtin)."""
    try:
        sig = inspect.signature(value.__init__ if kind == 'class' else value)
    except (TypeError, ValueError):
        return None
    return {p.name: p.default for p in sig.parameters.values()
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != 'self'}


def _old_signature(text):
    """0.4.1's {parameter: default's source (None where none)}, or None."""
    try:
        args = ast.parse('def f(%s): pass' % text).body[0].args
    except SyntaxError:
        return None
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    return {a.arg: None if d is None else ast.unparse(d) for a, d in pairs}


def _same_value(old, new):
    """Whether 0.4.1's default (source) is today's (a value)."""
    import torch
    try:
        value = eval(old, {'torch': torch})  # noqa: S307: 0.4.1's own signature text
    except Exception:
        return False
    try:
        return bool(value == new) and type(value) in (type(new), int, float, bool)
    except Exception:
        return False


def changed(entries):
    """[(owner, parameter, 0.4.1's default or None where added, today's)]."""
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for e in entries:
            text = e.signatures.get('0.4.1')
            if e.kind not in ('function', 'method', 'class') or text is None:
                continue
            old = _old_signature(text)
            try:
                value = _resolve(e.name)
            except LookupError:
                continue  # removed: py_coverage.py's
            if is_stub(value):
                continue  # a stub that raises: removed, py_coverage.py's
            new = _signature(value, e.kind) if old is not None else None
            if new is None:
                continue
            for name, default in new.items():
                if name not in old:
                    if default is not inspect.Parameter.empty:
                        found.append((e.name, name, None, default))
                elif old[name] is not None and default is not inspect.Parameter.empty \
                        and not _same_value(old[name], default):
                    found.append((e.name, name, old[name], default))
    return found


def verdict(owner, parameter):
    """(kind, reason) of a listed parameter, or None."""
    key = '%s(%s=)' % (owner, parameter)
    if key in VERDICTS:
        return VERDICTS[key]
    for (prefix, shared), said in SHARED.items():
        if owner.startswith(prefix + '.') and shared in ('', parameter):
            return said
    if any(owner == o or owner.startswith(o + '.') for o in OUTSIDE):
        return 'not numbers', 'sets no computation\'s result'
    if parameter in NEW_OPTIONS:
        return 'same', NEW_OPTIONS[parameter]
    return None


def rows():
    """{owner(parameter=): row} of tensor_behaviours' OLD_DEFAULTS and SCALED."""
    found = {'%s(%s=)' % (path, parameter): row
             for path, parameter, _, _, row in tensor_behaviours.OLD_DEFAULTS}
    found.update(('%s(recompute_scale_factor=)' % path, 'scale factor')
                 for path in tensor_behaviours.SCALED)
    return found


def check(listed):
    """What is wrong: a listed parameter without a verdict, a row verdict
    that tensor_behaviours lacks, a verdict or row for nothing listed."""
    problems = []
    keys = {'%s(%s=)' % (o, p) for o, p, _, _ in listed}
    table = rows()
    for owner, parameter, _, _ in listed:
        key = '%s(%s=)' % (owner, parameter)
        said = verdict(owner, parameter)
        if said is None:
            problems.append('no verdict: %s' % key)
        elif said[0] == 'row' and table.get(key) != said[1]:
            problems.append('%s: tensor_behaviours has no row %r for it' % (key, said[1]))
    # A verdict or row of a parameter today's PyTorch has and does not list
    # is stale; one an older PyTorch lacks (2.0 before a parameter) is not.
    for key in sorted(set(VERDICTS) - keys):
        if _takes(key):
            problems.append('a verdict for nothing listed: %s' % key)
    for key in sorted(set(table) - keys):
        # F.upsample passes its scale_factor to F.interpolate, whose parameter is listed.
        if not key.startswith('torch.nn.functional.upsample(') and _takes(key):
            problems.append('a row for nothing listed: %s' % key)
    return problems


def _takes(key):
    """Whether today's owner of `owner(parameter=)` takes the parameter."""
    owner, parameter = key[:-2].split('(')
    try:
        value = _resolve(owner)
    except LookupError:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        taken = _signature(value, 'class' if isinstance(value, type) else 'function')
    return taken is not None and parameter in taken


def report(listed):
    counts = collections.Counter((verdict(o, p) or ('no verdict',))[0] for o, p, _, _ in listed)
    lines = ['| verdict | parameters |', '|---|---|']
    lines += ['| %s | %d |' % (k, counts[k]) for k in VERDICTS_KINDS + ('no verdict',)
              if counts[k]]
    lines += ['', 'Where the numbers differ:', '']
    lines += ['- `%s(%s=)`: 0.4.1 %s, today %r: %s' % (
        o, p, 'had none' if old is None else old, new, ('%s (%s)' % (
            tensor_behaviours.RULES[said[1]].write, 'a row: port writes it, thffi run passes '
            'it') if said[0] == 'row' else 'left: ' + said[1]))
        for o, p, old, new in listed for said in [verdict(o, p)]
        if said is not None and said[0] in ('row', 'left')]
    return '\n'.join(lines) + '\n'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--surface', default=extract.OUT)
    parser.add_argument('--list', action='store_true', help='each listed parameter too')
    parser.add_argument('--doc', action='store_true', help='rewrite docs/py_defaults.md')
    args = parser.parse_args(argv)
    listed = changed(extract.read(args.surface))
    text = report(listed)
    sys.stdout.write(text)
    if args.list:
        for owner, parameter, old, new in listed:
            said = verdict(owner, parameter) or ('no verdict', '')
            print('%s(%s=)\t%s\t%r\t%s\t%s' % (owner, parameter, old, new, *said))
    if args.doc:
        write_doc(text, DOC, _BEGIN, _END)
    problems = check(listed)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
