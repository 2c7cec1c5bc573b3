"""The Python that 2017-2018 code was written in and today's Python, NumPy,
SciPy and PyTorch removed: one row per removed idiom, as 2to3 and pyupgrade
keep one fixer per idiom.  `python -m thffi port` reads both tables (port/py2.py
runs PYTHON2's fixers on Python 2 files; port/removed.py applies REMOVED
everywhere), so a new removed idiom is a row and a test.

Row(old, new, why, removed, fix):
- old: PYTHON2: the idiom as it was written.  REMOVED: the qualified name
  (`module.name`, as the code's imports resolve it) whose uses, imports and
  `from` imports are matched, the most specific row first: a module's row
  covers what it holds that has no row of its own.  A leading '.' is a method
  name, matched on any object (`.isAlive`); `self.` one on self
  (`self.assertEquals`, unittest's).
- new: what to write instead.
- why: what happens today, and what differs from the old form if anything
  ('' where nothing needs saying).
- removed: the release that removed the old form.
- fix: PYTHON2: the 2to3 fixer (fissix's `fix_*` module, or port's own,
  port/py2.py).  REMOVED: how port applies the row:
    'rename' - new is a qualified name that behaves the same: the use is
               rewritten (`np.float` -> `float`; `collections.Iterable` ->
               `collections.abc.Iterable`, its import added);
    'value'  - new is an expression that gives what the name held (a
               tuple, a constant, a dict of PyTorch's types): a use becomes
               it (in parentheses) and `from M import name` becomes
               `name = <new>`, `import` added for each module it names;
    'call'   - new is a template for the whole call, {0} its one argument,
               {module} the code's own name for old's module
               (`np.asscalar(a)` -> `a.item()`); a call of another shape is
               reported;
    'getargspec' - port/removed.py's one special case (the result's fields);
    'method' - old is a method ('.potrf', of METHOD_CLASSES' class), new the
               function that takes the object first: `x.potrf(u)` becomes
               `thffi.torch041.potrf(x, u)` (not on self, nor on what an
               import names: np.linalg.eig stays);
    None     - reported, with the line and `new`.
  A 'rename' to thffi's own name (thffi.torch041.potrf,
  thffi.legacy.NestedIOFunction) is the old name with its PyTorch 0.4.1
  meaning; its `why` says what today's PyTorch has instead.
  Three more shapes of `old`: 'owner(keyword=)' - a keyword argument of a
  call (KEYWORDS; '.m(keyword=)' a method's), 'rename' writing the keyword
  `new`, None reporting the call; 'name()' - a call of a name that is
  something else today (CALLS: torch.fft is a module); 'module:' - an
  import of a module that is something else today (IMPORTS: torch.tensor is
  a function).
  A removed module still imported is also reported in every file that imports
  the file importing it (port/imports.py): importing either fails.

`python -m thffi run` gives the rows that have an equivalent ('rename',
'value', 'call', 'getargspec', 'method'; method rows on their
METHOD_CLASSES class) back to the Pythons it starts
(thffi/run/removed_names.py), in place of the STUBS too, and names a row's
`new` in the error where there is none; so a row's `new` is exact, and
`old` names where the name was (the module that held it).  Keyword rows
are port's only.  tools/py_coverage.py checks that every name of PyTorch
0.3.1's and 0.4.1's Python API that today's PyTorch lacks has a row."""

import collections

Row = collections.namedtuple('Row', 'old new why removed fix')

PY3 = 'Python 3.0'
PYTHON2 = [
    Row('print x, y / print >>f, x', 'print(x, y) / print(x, file=f)',
        'print is a function in Python 3', PY3, 'fix_print'),
    Row('except E, e:', 'except E as e:', 'a SyntaxError in Python 3', PY3, 'fix_except'),
    Row('exec code in ns', 'exec(code, ns)', 'exec is a function in Python 3', PY3, 'fix_exec'),
    Row('execfile(path)', "exec(compile(open(path).read(), path, 'exec'))", 'gone in Python 3', PY3,
        'fix_execfile'),
    Row('raise E, value', 'raise E(value)', 'a SyntaxError in Python 3', PY3, 'fix_raise'),
    Row('a <> b', 'a != b', 'a SyntaxError in Python 3', PY3, 'fix_ne'),
    Row('`x`', 'repr(x)', 'a SyntaxError in Python 3', PY3, 'fix_repr'),
    Row('0777, 10L', '0o777, 10', 'a SyntaxError in Python 3', PY3, 'fix_numliterals'),
    Row('long', 'int', 'Python 3 has one integer type', PY3, 'fix_long'),
    Row('unicode, unichr, ur"..."', 'str, chr, r"..."', 'str is unicode in Python 3', PY3,
        'fix_unicode'),
    Row('basestring', 'str', 'gone in Python 3', PY3, 'fix_basestring'),
    Row('raw_input()', 'input()', 'renamed in Python 3', PY3, 'fix_raw_input'),
    Row('input()', 'eval(input())', "Python 2's input() evaluated what was typed", PY3,
        'fix_input'),
    Row('d.iteritems(), d.itervalues(), d.iterkeys(); d.keys() as a list',
        'd.items(), d.values(), d.keys(); list(d.keys())',
        'Python 3 has no iter* methods; keys(), values() and items() are views', PY3,
        'fix_dict'),
    Row('d.has_key(k)', 'k in d', 'gone in Python 3', PY3, 'fix_has_key'),
    Row('xrange(n); range(n) as a list', 'range(n); list(range(n))',
        'Python 3\'s range is what xrange was', PY3, 'fix_xrange'),
    Row('map(f, xs) as a list', 'list(map(f, xs))', 'map is lazy in Python 3', PY3, 'fix_map'),
    Row('filter(f, xs) as a list', 'list(filter(f, xs))', 'filter is lazy in Python 3', PY3,
        'fix_filter'),
    Row('zip(a, b) as a list', 'list(zip(a, b))', 'zip is lazy in Python 3', PY3, 'fix_zip'),
    Row('it.next(); def next(self)', 'next(it); def __next__(self)', 'renamed in Python 3', PY3,
        'fix_next'),
    Row('def __nonzero__(self)', 'def __bool__(self)', 'renamed in Python 3', PY3, 'fix_nonzero'),
    Row('reduce(f, xs)', 'functools.reduce(f, xs)', 'no longer a builtin in Python 3', PY3,
        'fix_reduce'),
    Row('intern(s)', 'sys.intern(s)', 'no longer a builtin in Python 3', PY3, 'fix_intern'),
    Row('apply(f, args)', 'f(*args)', 'gone in Python 3', PY3, 'fix_apply'),
    Row('os.getcwdu()', 'os.getcwd()', 'renamed in Python 3', PY3, 'fix_getcwdu'),
    Row('sys.maxint', 'sys.maxsize', 'renamed in Python 3', PY3, 'fix_renames'),
    Row('itertools.imap, izip, ifilter', 'map, zip, filter', 'gone in Python 3', PY3,
        'fix_itertools'),
    Row('from itertools import imap', '(the builtin)', 'gone in Python 3', PY3,
        'fix_itertools_imports'),
    Row('import cPickle, Queue, StringIO, ConfigParser, httplib, urlparse...',
        'import pickle, queue, io, configparser, http.client, urllib.parse...',
        'renamed in Python 3', PY3, 'fix_imports'),
    Row('import anydbm, whichdb', 'import dbm', 'renamed in Python 3', PY3, 'fix_imports2'),
    Row('urllib.urlopen, urllib2.urlopen...', 'urllib.request.urlopen...',
        'split up in Python 3', PY3, 'fix_urllib'),
    Row('def f(a, (b, c))', 'def f(a, b_c): b, c = b_c', 'a SyntaxError in Python 3', PY3,
        'fix_tuple_params'),
    Row('f.func_name, f.func_code...', 'f.__name__, f.__code__...', 'renamed in Python 3', PY3,
        'fix_funcattrs'),
    Row('m.im_func, m.im_self', 'm.__func__, m.__self__', 'renamed in Python 3', PY3,
        'fix_methodattrs'),
    Row('StandardError', 'Exception', 'gone in Python 3', PY3, 'fix_standarderror'),
    Row('sys.exc_type, sys.exc_value', 'sys.exc_info()[0], [1]', 'gone in Python 3', PY3,
        'fix_sys_exc'),
    Row('g.throw(E, value)', 'g.throw(E(value))', 'one argument in Python 3', PY3, 'fix_throw'),
    Row('types.StringType, types.IntType...', 'str, int...', 'gone in Python 3', PY3,
        'fix_types'),
    Row('__metaclass__ = M', 'class C(metaclass=M)', 'Python 3 ignores the attribute', PY3,
        'fix_metaclass'),
    Row('operator.isCallable(f), operator.sequenceIncludes(a, b)...',
        'callable(f), operator.contains(a, b)...', 'gone in Python 3', PY3, 'fix_operator'),
    Row('[x for x in 1, 2]', '[x for x in (1, 2)]', 'a SyntaxError in Python 3', PY3, 'fix_paren'),
    Row('sys.exitfunc = f', 'atexit.register(f)', 'gone in Python 3', PY3, 'fix_exitfunc'),
    Row('f.xreadlines()', 'f', 'gone in Python 3', PY3, 'fix_xreadlines'),
    Row('isinstance(x, (int, long))', 'isinstance(x, int)', 'the duplicate left by fix_long',
        PY3, 'fix_isinstance'),
    Row('import sibling / from sibling import x, in a package',
        'from . import sibling / from .sibling import x',
        'Python 3\'s imports are absolute: a ModuleNotFoundError', PY3,
        'fix_local_import'),
    Row("exec('from sibling import *'), in a package", "exec('from .sibling import *')",
        'the same import, in a string', PY3, 'fix_exec_import'),
]

_ABCS = ('Awaitable', 'Coroutine', 'AsyncIterable', 'AsyncIterator', 'AsyncGenerator',
         'Hashable', 'Iterable', 'Iterator', 'Generator', 'Reversible', 'Sized', 'Container',
         'Callable', 'Collection', 'Set', 'MutableSet', 'Mapping', 'MutableMapping',
         'MappingView', 'KeysView', 'ItemsView', 'ValuesView', 'Sequence', 'MutableSequence',
         'ByteString')
# NumPy's aliases of the builtin types: the same objects as the builtins.
_NUMPY_BUILTINS = (('float', 'float'), ('int', 'int'), ('bool', 'bool'), ('object', 'object'),
                   ('long', 'int'), ('str', 'str'), ('unicode', 'str'), ('complex', 'complex'))
# NumPy 2.0's removed aliases (NEP 52) with the name that stays.
_NUMPY2 = (('float_', 'float64'), ('complex_', 'complex128'), ('cfloat', 'complex128'),
           ('singlecomplex', 'complex64'), ('longfloat', 'longdouble'),
           ('clongfloat', 'clongdouble'), ('longcomplex', 'clongdouble'), ('string_', 'bytes_'),
           ('unicode_', 'str_'), ('int0', 'intp'), ('uint0', 'uintp'), ('bool8', 'bool_'),
           ('NaN', 'nan'), ('NAN', 'nan'), ('Inf', 'inf'), ('Infinity', 'inf'),
           ('infty', 'inf'), ('PINF', 'inf'), ('alltrue', 'all'), ('sometrue', 'any'),
           ('product', 'prod'), ('cumproduct', 'cumprod'), ('round_', 'round'),
           ('mat', 'asmatrix'))
_UNITTEST = (('assertEquals', 'assertEqual'), ('assertNotEquals', 'assertNotEqual'),
             ('assertAlmostEquals', 'assertAlmostEqual'),
             ('assertNotAlmostEquals', 'assertNotAlmostEqual'), ('assert_', 'assertTrue'),
             ('failUnless', 'assertTrue'), ('failIf', 'assertFalse'),
             ('failUnlessEqual', 'assertEqual'), ('failIfEqual', 'assertNotEqual'),
             ('failUnlessRaises', 'assertRaises'), ('assertRegexpMatches', 'assertRegex'),
             ('assertNotRegexpMatches', 'assertNotRegex'),
             ('assertRaisesRegexp', 'assertRaisesRegex'))
_SCIPY_IMAGES = ('imfilter', 'imrotate', 'imshow')
# scipy.misc's image functions given back with SciPy 1.0's meaning, over
# Pillow (thffi/runtime/scipy_images.py): name, today's nearest.
_SCIPY_IMAGES_BACK = (
    ('imread', "numpy.asarray(PIL.Image.open(path)) (mode=: .convert(mode) first; "
               "flatten=True: .convert('F')), or imageio.v2.imread(path)"),
    ('imsave', 'PIL.Image.fromarray(a).save(path) (imsave scaled the values to 0-255 first, '
               'as bytescale did; a uint8 array is saved as it is)'),
    ('imresize', 'numpy.asarray(PIL.Image.fromarray(a).resize((width, height), '
                 'PIL.Image.BILINEAR)) (imresize took (rows, cols), a percentage or a '
                 'fraction, and returned uint8 scaled to 0-255)'),
    ('toimage', 'PIL.Image.fromarray(a) (toimage scaled the values to 0-255 first)'),
    ('fromimage', 'numpy.asarray(image)'),
    ('bytescale', '((a - a.min()) * 255.0 / (a.max() - a.min()) + 0.5).astype(numpy.uint8)'))
_SCIPY_SPECIAL = ('comb', 'factorial', 'factorial2', 'factorialk', 'logsumexp')
_TORCH_1 = 'PyTorch 1.0'
_TORCH_2 = 'PyTorch 2.0'
# torch._six (PyTorch 0.4-1.13's Python 2/3 shim), name by name.
_TORCH_SIX = (('string_classes', '(str, bytes)', 'value'), ('int_classes', 'int', 'rename'),
              ('inf', 'math.inf', 'rename'), ('nan', 'math.nan', 'rename'),
              ('container_abcs', 'collections.abc', 'rename'), ('PY2', 'False', 'value'),
              ('PY3', 'True', 'value'), ('PY37', 'True', 'value'),
              ('FileNotFoundError', 'FileNotFoundError', 'rename'), ('queue', 'queue', 'rename'),
              ('builtins', 'builtins', 'rename'), ('StringIO', 'io.StringIO', 'rename'),
              ('with_metaclass', 'class C(Base, metaclass=Meta)', None),
              ('istuple', 'isinstance(x, tuple)', None),
              ('raise_from', 'raise value from cause', None))
# What torch.utils.data.dataloader's collate did with numpy_type_map: the
# tensor type of each NumPy dtype's name.
_NUMPY_TYPE_MAP = ("{'float64': torch.DoubleTensor, 'float32': torch.FloatTensor, "
                   "'float16': torch.HalfTensor, 'int64': torch.LongTensor, "
                   "'int32': torch.IntTensor, 'int16': torch.ShortTensor, "
                   "'int8': torch.CharTensor, 'uint8': torch.ByteTensor}")
# Python 2's string module functions: the str methods (and int(), float()).
_STRING_FUNCTIONS = (('atoi', 'int(s)'), ('atof', 'float(s)'), ('atol', 'int(s)'),
                     ('join', "sep.join(words) (string.join's sep was ' ' by default)"),
                     ('split', 's.split(sep)'), ('strip', 's.strip()'), ('lower', 's.lower()'),
                     ('upper', 's.upper()'), ('replace', 's.replace(old, new)'),
                     ('find', 's.find(sub)'), ('maketrans', 'str.maketrans(a, b) '
                                               '(bytes.maketrans for bytes)'))
_STRING_CONSTANTS = (('letters', 'ascii_letters'), ('lowercase', 'ascii_lowercase'),
                     ('uppercase', 'ascii_uppercase'))
_URLLIB = (('urlopen', 'request'), ('urlretrieve', 'request'), ('urlencode', 'parse'),
           ('quote', 'parse'), ('quote_plus', 'parse'), ('unquote', 'parse'),
           ('unquote_plus', 'parse'), ('pathname2url', 'request'),
           ('url2pathname', 'request'))
# NumPy 2.0's removed aliases of scalar types, beside _NUMPY2's.
_NUMPY2_SCALARS = (('object0', 'object_'), ('str0', 'str_'), ('bytes0', 'bytes_'),
                   ('void0', 'void'))
# scipy.signal's windows, which SciPy 1.13 left in scipy.signal.windows only.
_SCIPY_WINDOWS = ('barthann', 'bartlett', 'blackman', 'blackmanharris', 'bohman', 'boxcar',
                  'chebwin', 'cosine', 'exponential', 'flattop', 'gaussian',
                  'general_gaussian', 'hamming', 'hann', 'kaiser', 'nuttall', 'parzen',
                  'triang', 'tukey')
# Versions the rows below were removed in, where one release cannot be
# named from what was read (0.4.1's sources, today's PyTorch).
_AFTER_041 = 'a release after PyTorch 0.4.1'
# PyTorch 0.4.1's functions given back with their 0.4.1 meaning
# (thffi/torch041.py): name, today's nearest, the release that removed it.
_TORCH041_FUNCTIONS = (
    ('potrf', 'torch.linalg.cholesky(A, upper=True) (cholesky is lower by default; potrf '
     'was upper)', 'PyTorch 1.9'),
    ('potrs', 'torch.cholesky_solve(B, U, upper=True)', 'PyTorch 1.9'),
    ('potri', 'torch.cholesky_inverse(U, upper=True)', 'PyTorch 1.9'),
    ('pstrf', 'no pivoted Cholesky; scipy.linalg.lapack.dpstrf', _AFTER_041),
    ('gesv', 'torch.linalg.solve(A, B) (the arguments swapped, no LU returned)',
     'PyTorch 1.9'),
    ('gels', 'torch.linalg.lstsq(A, B).solution (the arguments swapped, n rows, no QR '
     'returned)', 'PyTorch 1.9'),
    ('trtrs', 'torch.linalg.solve_triangular(A, B, upper=True) (no copy of A returned)',
     'PyTorch 1.9'),
    ('btrifact', 'torch.linalg.lu_factor(A)', 'PyTorch 1.9'),
    ('btrifact_with_info', 'torch.linalg.lu_factor_ex(A)', _AFTER_041),
    ('btrisolve', 'torch.linalg.lu_solve(LU, pivots, B) (B with a last dimension for its '
     'columns)', 'PyTorch 1.9'),
    ('btriunpack', 'torch.lu_unpack(LU, pivots)', _AFTER_041),
    ('symeig', 'torch.linalg.eigh(A, UPLO="U") (eigenvalues always; the lower triangle by '
     'default)', 'PyTorch 1.9'),
    ('eig', 'torch.linalg.eig(A) (complex results)', 'PyTorch 1.9'),
    ('fft', 'torch.view_as_real(torch.fft.fftn(torch.view_as_complex(x), dim=...))',
     'PyTorch 1.8'),
    ('ifft', 'torch.view_as_real(torch.fft.ifftn(torch.view_as_complex(x), dim=...))',
     'PyTorch 1.8'),
    ('rfft', 'torch.view_as_real(torch.fft.rfftn(x, dim=...))', 'PyTorch 1.8'),
    ('irfft', 'torch.fft.irfftn(torch.view_as_complex(x), s=..., dim=...)', 'PyTorch 1.8'))
# Those that were tensor methods too.
_TORCH041_METHODS = ('potrf', 'potrs', 'potri', 'pstrf', 'gesv', 'gels', 'trtrs', 'btrifact',
                     'btrifact_with_info', 'symeig', 'eig', 'fft', 'ifft', 'rfft', 'irfft')
_CUDNN = ("torch.backends.cudnn's switches: enabled, benchmark, deterministic, version(), "
          'is_available() (cuDNN is called from C++; its ctypes bindings are gone)')
_CUDNN_041 = ('CUDNN_DATA_DOUBLE', 'CUDNN_DATA_FLOAT', 'CUDNN_DATA_HALF', 'CUDNN_DEFAULT_MATH',
              'CUDNN_GRU', 'CUDNN_LINEAR_INPUT', 'CUDNN_LSTM', 'CUDNN_RNN_ALGO_PERSIST_DYNAMIC',
              'CUDNN_RNN_ALGO_PERSIST_STATIC', 'CUDNN_RNN_ALGO_STANDARD', 'CUDNN_RNN_RELU',
              'CUDNN_RNN_TANH', 'CUDNN_SKIP_INPUT', 'CUDNN_TENSOR_NCHW', 'CUDNN_TENSOR_NHWC',
              'CUDNN_TENSOR_OP_MATH', 'CUDNN_TENSOR_TYPES', 'CuDNNError', 'CuDNNHandle',
              'DropoutDescriptor', 'FilterDescriptor', 'RNNDescriptor', 'TensorDescriptor',
              'TensorDescriptorArray', 'add_tensor', 'c_type', 'check_error', 'descriptor',
              'descriptor_sequence', 'disable_global_flags', 'find_cudnn_windows_lib',
              'flags_frozen', 'get_error_string', 'get_handle', 'int_array', 'lib', 'verbose')
_JIT = ("torch.jit.trace(module, example_inputs) or torch.jit.script; 0.4.1's tracer "
        'internals are gone')
_JIT_041 = ('HOLE', 'LegacyTracedModule', 'Module', 'ModuleList', 'OrderedBufferDict',
            'OrderedDictWrapper', 'OrderedModuleDict', 'OrderedParameterDict', 'Parameter',
            'ParameterList', 'Placeholder', 'ScriptMeta', 'ScriptMethodStub', 'Sequential',
            'TraceForKey', 'VOLATILE', 'batch', 'compile', 'createResolutionCallback',
            'get_jit_ast', 'get_trace_graph', 'get_tracing_state', 'scope', 'vars_key',
            'verify', 'TopLevelTracedModule.forward', 'TracedModule.forward',
            'annotations.TupleCls', 'annotations.TupleInstance',
            'annotations.default_signature', 'frontend.StmtBuilder.get_assign_lhs_expr',
            'frontend.find_after')
_PROFILER = ("torch.autograd.profiler.profile's results (prof.key_averages().table(), "
             'prof.events())')
_DISTRIBUTED = ('torch.distributed with the NCCL backend (one process a GPU: '
                'all_reduce, broadcast, all_gather, reduce)')
_ONNX = 'torch.onnx.export (its internals changed)'
_OUT = 'the call without out=, its result assigned (or out.copy_(result))'
# Names of 0.3.1/0.4.1 that are gone, what to write instead, why.
_GONE_041 = (
    *[('torch.backends.cudnn.' + n, _CUDNN, 'internal to cuDNN\'s ctypes binding')
      for n in _CUDNN_041],
    ('torch.backends.cudnn.rnn', 'torch.nn.LSTM, GRU and RNN (cuDNN runs inside them)',
     "cuDNN's RNN is called from C++"),
    ('torch.backends.cuda.CUDAModule', 'torch.backends.cuda.cufft_plan_cache, '
     'torch.backends.cuda.matmul', 'internal'),
    ('torch.backends.cuda.ContextProp', 'torch.backends.cuda.cufft_plan_cache, '
     'torch.backends.cuda.matmul', 'internal'),
    *[('torch.jit.' + n, _JIT, '') for n in _JIT_041],
    ('torch.jit.batchop', 'torch.vmap (batching by a transform)', 'torch.jit.batch is gone'),
    ('torch.jit.passes', 'torch.jit.freeze / torch.jit.optimize_for_inference',
     "0.4.1's Python passes are gone"),
    ('torch.onnx.symbolic', 'torch.onnx.symbolic_opset9... and '
     'torch.onnx.register_custom_op_symbolic', 'split by opset'),
    *[('torch.onnx.' + n, _ONNX, '') for n in (
        'ExportTypes', 'ONNX_ARCHIVE_MODEL_PROTO_NAME', 'attr_pattern',
        'export_to_pretty_string', 'set_training', 'symbolic_override',
        'symbolic_override_first_arg_based', 'symbolic_override_packed_sequence_based',
        'utils.attr_pattern', 'utils.export_to_pretty_string', 'utils.set_training')],
    ('torch.for_onnx', 'torch.onnx.export', 'internal'),
    ('torch.autograd.StochasticFunction', 'torch.distributions (a score function: loss = '
     '-dist.log_prob(action) * reward)', 'stochastic Functions are gone'),
    ('torch.autograd.stochastic_function', 'torch.distributions (a score function: loss = '
     '-dist.log_prob(action) * reward)', 'stochastic Functions are gone'),
    ('torch.autograd.function.traceable', 'nothing: torch.jit.trace traces any Function',
     ''),
    *[('torch.autograd.gradcheck.' + n, 'torch.autograd.gradcheck(f, inputs) and '
       'gradgradcheck (their helpers are private)', '') for n in (
        'contiguous', 'iter_tensors', 'iter_variables', 'make_jacobian')],
    ('torch.autograd.gradcheck.zero_gradients', 'x.grad = None (or x.grad.zero_()) for each '
     'input', ''),
    *[('torch.autograd.profiler.' + n, _PROFILER, 'internal') for n in (
        'Record', 'build_table', 'demangle', 'format_time', 'parse_cpu_trace',
        'attr_formatter')],
    ('torch.cuda.error', 'RuntimeError (CUDA errors are raised as RuntimeError)', ''),
    ('torch.cuda.find_cuda_windows_lib', 'nothing: PyTorch finds its CUDA libraries', ''),
    ('torch.cuda.nvtx.lib', 'torch.cuda.nvtx.range_push / range_pop / mark', 'internal'),
    ('torch.cuda.nvtx.windows_nvToolsExt_lib', 'torch.cuda.nvtx.range_push / range_pop',
     'internal'),
    ('torch.cuda.nvtx.windows_nvToolsExt_path', 'torch.cuda.nvtx.range_push / range_pop',
     'internal'),
    ('torch.cuda.profiler.cudaOutputMode', 'torch.cuda.profiler.profile() (or nsys)', ''),
    ('torch.cuda.profiler.init', 'torch.cuda.profiler.start() / stop()', ''),
    ('torch.cuda.streams.EventHandle', 'torch.cuda.Event.ipc_handle()', ''),
    ('torch.get_nvToolsExt_path', 'nothing: torch.cuda.nvtx loads it', ''),
    ('torch.manager_path', 'nothing: torch.multiprocessing starts its manager', 'internal'),
    ('torch.old_flags', 'nothing (the dlopen flags torch set while loading)', 'internal'),
    *[('torch.distributed.' + n, _DISTRIBUTED, "the _multigpu collectives are gone")
      for n in ('all_gather_multigpu', 'all_reduce_multigpu', 'broadcast_multigpu',
                'reduce_multigpu')],
    ('torch.distributed.init_master_worker', 'torch.distributed.init_process_group',
     "the master-worker mode is gone"),
    ('torch.distributed.dist_backend', 'torch.distributed.Backend', ''),
    ('torch.distributed.remote_types', 'torch.distributed.rpc', "the master-worker mode's "
     'types are gone'),
    ('torch.distributed.c10d', 'torch.distributed (c10d became it in PyTorch 1.0)', ''),
    ('torch.nn.parallel.distributed_c10d', 'torch.nn.parallel.DistributedDataParallel', ''),
    ('torch.nn.parallel.distributed_cpu', 'torch.nn.parallel.DistributedDataParallel (the '
     'gloo backend on CPU)', ''),
    ('torch.nn.parallel.DistributedDataParallel.parallel_apply', 'nothing: one process a '
     'device is the only mode', ''),
    ('torch.nn.parallel.DistributedDataParallelCPU.sync_parameters', 'nothing: '
     'torch.nn.parallel.DistributedDataParallel keeps the replicas in step', ''),
    ('torch.distributions.utils.batch_tril', 'torch.tril', ''),
    ('torch.multiprocessing.reductions.StorageRef', 'nothing (internal to sharing storages)',
     'internal'),
    ('torch.multiprocessing.reductions.rebuild_storage_cuda', 'nothing (internal to '
     'sharing storages)', 'internal'),
    ('torch.multiprocessing.reductions.reduce_event', 'nothing (internal to sharing CUDA '
     'events)', 'internal'),
    ('torch.nn.functional.GRID_SAMPLE_MODE_BORDER', "padding_mode='border' of "
     'F.grid_sample', ''),
    ('torch.nn.functional.GRID_SAMPLE_MODE_ZEROS', "padding_mode='zeros' of F.grid_sample",
     ''),
    ('torch.nn.modules.rnn.RNNCellBase.check_forward_input', 'nothing: the cell checks its '
     'input', ''),
    ('torch.nn.modules.rnn.RNNCellBase.check_forward_hidden', 'nothing: the cell checks '
     'its hidden state', ''),
    ('torch.testing.get_all_dtypes', 'the dtypes you test (torch.float32, torch.float64...)',
     ''),
    ('torch.testing.make_non_contiguous', "torch.testing.make_tensor(..., "
     'noncontiguous=True)', ''),
    ('torch.utils.bottleneck', 'python -m torch.utils.bottleneck script.py', ''),
    ('torch.utils.cpp_extension.check_compiler_abi_compatibility', 'nothing: '
     'cpp_extension checks the compiler itself', ''),
    ('torch.utils.cpp_extension.is_binary_build', 'nothing: cpp_extension checks the '
     'compiler itself (torch.version.git_version for the build)', ''),
    ('torch.utils.data.dataloader.MANAGER_STATUS_CHECK_INTERVAL', 'nothing (internal to '
     "the DataLoader's workers)", ''),
    ('torch.utils.data.dataloader.ManagerWatchdog', 'nothing (internal to the DataLoader\'s '
     'workers)', ''),
    ('torch.utils.data.dataloader.pin_memory_batch', 'DataLoader(..., pin_memory=True), or '
     'tensor.pin_memory()', ''),
    ('torch.utils.model_zoo.HASH_REGEX', 'torch.hub.load_state_dict_from_url(url, '
     'check_hash=True)', ''),
    ('torch.utils.model_zoo.requests_available', 'nothing: torch.hub downloads with urllib',
     ''),
)
# Renamed or moved (one the other's equivalent).
_MOVED_041 = (
    ('torch.autograd.profiler.range', 'torch.autograd.profiler.record_function'),
    *[('torch.autograd.profiler.' + n, 'torch.autograd.profiler_util.' + n)
      for n in ('FormattedTimesMixin', 'FunctionEventAvg', 'Interval', 'Kernel',
                'StringTable')],
)
# Keyword arguments: (owner, keyword, new, why, fix): 'rename' - port writes
# the keyword new; None - port reports the call, saying new.  An owner '.m'
# is a tensor's method m (METHOD_CLASSES), as 0.3.1's Variable's too.
_KEYWORDS_041 = (
    ('.copy_', 'async', 'non_blocking', 'async is a keyword of Python 3.7', 'rename'),
    ('.cuda', 'async', 'non_blocking', 'async is a keyword of Python 3.7', 'rename'),
    ('.copy_', 'broadcast', 'copy_(src) (it always broadcasts)', '', None),
    ('.add', 'value', 'alpha', 'x.add(value=2, other=y) is x.add(y, alpha=2)', 'rename'),
    ('.add_', 'value', 'alpha', 'x.add_(value=2, other=y) is x.add_(y, alpha=2)', 'rename'),
    *[('.' + m, 'k', 'diagonal', "0.4.1's documentation named it k", 'rename')
      for m in ('tril', 'tril_', 'triu', 'triu_')],
    ('.backward', 'retain_variables', 'retain_graph', 'renamed', 'rename'),
    ('torch.autograd.backward', 'retain_variables', 'retain_graph', 'renamed', 'rename'),
    ('torch.diagflat', 'diagonal', 'offset', 'renamed', 'rename'),
    ('torch.mode', 'values', 'out=(values, indices)', '', None),
    ('torch.mode', 'indices', 'out=(values, indices)', '', None),
    *[('torch.' + f, 'out', _OUT, '', None)
      for f in ('squeeze', 'unsqueeze', 't', 'transpose', 'zeros_like', 'ones_like',
                'full_like')],
    ('torch.cuda.Event', '_handle', 'torch.cuda.Event.from_ipc_handle(device, handle)', '',
     None),
    ('torch.backends.cudnn.flags', 'verbose', 'flags(enabled, benchmark, deterministic)',
     '', None),
    ('torch.jit.ScriptModule', 'optimize', 'torch.jit.script(module)', '', None),
    ('torch.jit.TracedModule', 'optimize', 'torch.jit.trace(module, inputs)', '', None),
    ('torch.jit.TracedModule', 'nderivs', 'torch.jit.trace(module, inputs)', '', None),
    ('torch.jit.trace', 'args', 'torch.jit.trace(f, example_inputs)', '', None),
    ('torch.jit.trace', 'kwargs', 'torch.jit.trace(f, example_inputs)', '', None),
    ('torch.jit.trace', 'nderivs', 'torch.jit.trace(f, example_inputs)', '', None),
    ('torch.jit.annotations.get_signature', '_n_arguments', 'torch.jit.script', '', None),
    ('torch.jit.annotations.get_signature', '_n_binders', 'torch.jit.script', '', None),
    ('torch.nn.RNNBase.forward', 'hx', 'the module called: lstm(input, hx) (LSTM, GRU and '
     'RNN take hx)', '', None),
    *[('torch.nn.grad.conv%dd_%s' % (n, what), 'bias', 'the call without bias= (it was '
       'not used)', '', None) for n in (1, 2, 3) for what in ('input', 'weight')],
    ('torch.onnx.utils.export', 'aten', 'operator_export_type=torch.onnx.'
     'OperatorExportTypes.ONNX_ATEN', '', None),
    ('torch.onnx.utils.export', 'export_raw_ir', 'torch.onnx.export (the raw IR is not '
     'exported any more)', '', None),
    ('torch.optim.lr_scheduler.ReduceLROnPlateau', 'verbose', 'the call without verbose= '
     "(print scheduler.get_last_lr() yourself)", '', None),
    ('torch.utils.cpp_extension.include_paths', 'cuda', "device_type='cuda' (cuda=True) or "
     "'cpu'", '', None),
    ('torch.utils.cpp_extension.library_paths', 'cuda', "device_type='cuda' (cuda=True) or "
     "'cpu'", '', None),
    ('torch.autograd.profiler.profile', 'use_cuda', "use_device='cuda'", '', None),
)
_DISTUTILS = ("where setuptools is installed, `import distutils` after `import setuptools` "
              "finds setuptools's copy")

REMOVED = [
    # -- Python ---------------------------------------------------------------
    *[Row('collections.' + n, 'collections.abc.' + n, 'the ABCs live in collections.abc',
          'Python 3.10', 'rename') for n in _ABCS],
    Row('imp', 'importlib', 'imp is gone', 'Python 3.12', None),
    Row('imp.reload', 'importlib.reload', 'imp is gone', 'Python 3.12', 'rename'),
    Row('imp.new_module', 'types.ModuleType', 'imp is gone', 'Python 3.12', 'rename'),
    Row('imp.load_source', 'spec = importlib.util.spec_from_file_location(name, path); '
        'module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)',
        'imp is gone', 'Python 3.12', None),
    Row('imp.find_module', 'importlib.util.find_spec(name)', 'imp is gone', 'Python 3.12',
        None),
    Row('imp.load_module', 'importlib.import_module(name), or importlib.util as for '
        'load_source', 'imp is gone', 'Python 3.12', None),
    Row('distutils', "setuptools's setup, Extension and command.build_ext; sysconfig; "
        'shutil.which; packaging.version', _DISTUTILS, 'Python 3.12', None),
    Row('distutils.core.setup', 'setuptools.setup', _DISTUTILS, 'Python 3.12', 'rename'),
    Row('distutils.core.Extension', 'setuptools.Extension', _DISTUTILS, 'Python 3.12',
        'rename'),
    Row('distutils.extension.Extension', 'setuptools.Extension', _DISTUTILS, 'Python 3.12',
        'rename'),
    Row('distutils.command.build_ext.build_ext', 'setuptools.command.build_ext.build_ext',
        _DISTUTILS, 'Python 3.12', 'rename'),
    Row('distutils.spawn.find_executable', 'shutil.which', _DISTUTILS, 'Python 3.12',
        'rename'),
    Row('distutils.sysconfig.get_config_var', 'sysconfig.get_config_var', _DISTUTILS,
        'Python 3.12', 'rename'),
    Row('distutils.sysconfig.get_config_vars', 'sysconfig.get_config_vars', _DISTUTILS,
        'Python 3.12', 'rename'),
    Row('distutils.sysconfig.get_python_inc', "sysconfig.get_paths()['include']", _DISTUTILS,
        'Python 3.12', None),
    Row('distutils.version', 'packaging.version.Version(s) (ordered like StrictVersion; '
        'LooseVersion also took any string)', _DISTUTILS, 'Python 3.12', None),
    Row('distutils.util.strtobool', "s.lower() in ('y', 'yes', 't', 'true', 'on', '1')",
        _DISTUTILS, 'Python 3.12', None),
    Row('distutils.dir_util.mkpath', 'os.makedirs(path, exist_ok=True)', _DISTUTILS,
        'Python 3.12', None),
    Row('inspect.getargspec', 'inspect.getfullargspec',
        "getfullargspec's result has 7 fields, the first four getargspec's with keywords "
        'named varkw', 'Python 3.11', 'getargspec'),
    Row('inspect.formatargspec', 'str(inspect.signature(f))', '', 'Python 3.11', None),
    Row('time.clock', 'time.process_time',
        'on Linux time.clock measured processor time, as process_time does; for wall-clock '
        'time write time.perf_counter()', 'Python 3.8', 'rename'),
    Row('fractions.gcd', 'math.gcd',
        'math.gcd takes integers only and is never negative, where fractions.gcd took the '
        'sign of its second argument', 'Python 3.9', 'rename'),
    Row('os.errno', 'errno', 'os no longer exposes errno', 'Python 3.7', 'rename'),
    Row('base64.encodestring', 'base64.encodebytes', 'renamed', 'Python 3.9', 'rename'),
    Row('base64.decodestring', 'base64.decodebytes', 'renamed', 'Python 3.9', 'rename'),
    Row('.isAlive', '.is_alive', "threading.Thread's camelCase alias is gone", 'Python 3.9',
        'rename'),
    Row('.tostring', '.tobytes', "array.array's and numpy.ndarray's alias is gone",
        'Python 3.9, NumPy 2.3', 'rename'),
    *[Row('self.' + old, 'self.' + new, "unittest's alias is gone", 'Python 3.12', 'rename')
      for old, new in _UNITTEST],
    Row('configparser.SafeConfigParser', 'configparser.ConfigParser', 'renamed',
        'Python 3.12', 'rename'),
    Row('locale.format', 'locale.format_string', 'renamed', 'Python 3.12', 'rename'),
    Row('pipes.quote', 'shlex.quote', 'pipes is gone', 'Python 3.13', 'rename'),
    Row('pipes', 'shlex, subprocess', 'pipes is gone', 'Python 3.13', None),
    Row('imghdr', 'PIL.Image.open(path).format', 'imghdr is gone', 'Python 3.13', None),
    Row('os.getcwdu', 'os.getcwd', 'Python 3\'s getcwd gives str', PY3, 'rename'),
    Row('sys.maxint', 'sys.maxsize',
        "Python 3's int has no maximum; maxsize is what maxint was on 64-bit Linux", PY3,
        'rename'),
    *[Row('string.' + old, 'string.' + new, "Python 2's locale-dependent %s; %s is what "
          'it held in the C locale' % (old, new), PY3, 'rename')
      for old, new in _STRING_CONSTANTS],
    *[Row('string.' + name, new, "Python 2's string module functions are gone", PY3, None)
      for name, new in _STRING_FUNCTIONS],
    *[Row('urllib.' + name, 'urllib.%s.%s' % (module, name),
          "Python 2's urllib is split up in Python 3", PY3, 'rename')
      for name, module in _URLLIB],
    Row('cgi.escape', 'html.escape(s, quote=False)',
        'html.escape also escapes quotes unless quote=False', 'Python 3.8', None),
    Row('cgi', 'html.escape; urllib.parse.parse_qs; email.message for form data',
        'cgi is gone', 'Python 3.13', None),
    Row('platform.linux_distribution', 'distro.linux_distribution() (pip install distro), or '
        "platform.freedesktop_os_release()['ID']", '', 'Python 3.8', None),
    Row('platform.dist', 'distro.linux_distribution() (pip install distro), or '
        "platform.freedesktop_os_release()['ID']", '', 'Python 3.8', None),
    Row('inspect.getmoduleinfo', 'inspect.getmodulename(path)', '', 'Python 3.6', None),
    Row('xml.etree.cElementTree', 'xml.etree.ElementTree (the same API, as fast)', '',
        'Python 3.9', None),
    Row('sys.setcheckinterval', 'sys.setswitchinterval(seconds) (in seconds, not bytecodes)',
        '', 'Python 3.9', None),
    Row('unittest.makeSuite', 'unittest.TestLoader().loadTestsFromTestCase(C)', '',
        'Python 3.13', None),
    Row('unittest.findTestCases', 'unittest.TestLoader().loadTestsFromModule(m)', '',
        'Python 3.13', None),
    Row('.readfp', '.read_file', "configparser's alias is gone", 'Python 3.12', 'rename'),
    # -- NumPy --------------------------------------------------------------
    *[Row('numpy.' + old, new, 'the alias of the builtin %s is gone' % new, 'NumPy 1.24',
          'rename') for old, new in _NUMPY_BUILTINS],
    Row('numpy.asscalar', '{0}.item()', '', 'NumPy 1.23', 'call'),
    *[Row('numpy.' + old, 'numpy.' + new, 'the alias is gone', 'NumPy 2.0', 'rename')
      for old, new in _NUMPY2],
    *[Row('numpy.' + old, 'numpy.' + new, 'the alias is gone', 'NumPy 2.0', 'rename')
      for old, new in _NUMPY2_SCALARS],
    Row('numpy.NINF', '-numpy.inf', '', 'NumPy 2.0', None),
    Row('numpy.PZERO', '0.0', '', 'NumPy 2.0', 'value'),
    Row('numpy.NZERO', '-0.0', '', 'NumPy 2.0', 'value'),
    Row('numpy.get_numpy_include', 'numpy.get_include', 'renamed', 'NumPy 1.9', 'rename'),
    Row('numpy.rank', 'numpy.ndim', 'rank meant the number of dimensions (for the rank of a '
        'matrix, numpy.linalg.matrix_rank)', 'NumPy 1.18', 'rename'),
    Row('numpy.alen', 'len({0})', 'the length of the first dimension', 'NumPy 1.23', 'call'),
    Row('numpy.loads', 'pickle.loads', 'it was pickle.loads', 'NumPy 1.22', 'rename'),
    Row('numpy.trapz', 'numpy.trapezoid', 'renamed', 'NumPy 2.4', 'rename'),
    Row('numpy.in1d', 'numpy.isin(a, b).ravel() (in1d flattened its result)', '', 'NumPy 2.4',
        None),
    Row('numpy.cast', 'numpy.asarray(a, dtype=t)', '', 'NumPy 2.0', None),
    Row('numpy.sctypes', 'numpy.dtype subclasses by kind: numpy.float64, numpy.int32...', '',
        'NumPy 2.0', None),
    Row('numpy.msort', '{module}.sort({0}, axis=0)', '', 'NumPy 2.0', 'call'),
    Row('numpy.asfarray', 'numpy.asarray(a, dtype=numpy.float64) (asfarray kept float16 '
        'and float32 as they were)', '', 'NumPy 2.0', None),
    Row('numpy.safe_eval', 'ast.literal_eval', '', 'NumPy 2.0', 'rename'),
    Row('numpy.find_common_type', 'numpy.result_type or numpy.promote_types', '',
        'NumPy 2.0', None),
    # -- SciPy --------------------------------------------------------------
    *[Row('scipy.misc.' + name, 'thffi.runtime.scipy_images.' + name, "SciPy 1.0's, over "
          'Pillow (pip install Pillow); today: ' + today, 'SciPy 1.3', 'rename')
      for name, today in _SCIPY_IMAGES_BACK],
    *[Row('scipy.misc.' + n, 'PIL.Image', '', 'SciPy 1.3', None) for n in _SCIPY_IMAGES],
    *[Row('scipy.misc.' + n, 'scipy.special.' + n, 'moved', 'SciPy 1.3', 'rename')
      for n in _SCIPY_SPECIAL],
    Row('scipy.ndimage.imread', 'imageio.v2.imread(path), or numpy.asarray(PIL.Image.open('
        'path))', '', 'SciPy 1.2', None),
    Row('scipy.misc.face', 'scipy.datasets.face (pip install pooch: it downloads the image)',
        '', 'SciPy 1.12', None),
    Row('scipy.misc.ascent', 'scipy.datasets.ascent (pip install pooch: it downloads the '
        'image)', '', 'SciPy 1.12', None),
    Row('scipy.misc.derivative', 'scipy.differentiate.derivative (another signature) or a '
        'finite difference of your own', '', 'SciPy 1.12', None),
    Row('scipy.integrate.trapz', 'scipy.integrate.trapezoid', 'renamed', 'SciPy 1.14',
        'rename'),
    Row('scipy.integrate.cumtrapz', 'scipy.integrate.cumulative_trapezoid', 'renamed',
        'SciPy 1.14', 'rename'),
    Row('scipy.integrate.simps', 'scipy.integrate.simpson(y, x=x) (x is keyword-only, and '
        '`even` is gone)', '', 'SciPy 1.14', None),
    *[Row('scipy.signal.' + n, 'scipy.signal.windows.' + n, 'moved', 'SciPy 1.13', 'rename')
      for n in _SCIPY_WINDOWS],
    Row('scipy.signal.hanning', 'scipy.signal.windows.hann', 'renamed', 'SciPy 1.13',
        'rename'),
    Row('scipy.linalg.pinv2', 'scipy.linalg.pinv', 'pinv computes it by SVD too', 'SciPy 1.9',
        'rename'),
    # -- PyTorch ------------------------------------------------------------
    Row('torch.legacy', 'torch.nn (the Lua-style modules have torch.nn counterparts: '
        'nn.Linear, nn.Sequential...)', 'torch.legacy is gone', _TORCH_1, None),
    Row('torch.utils.serialization', "torchfile.load(path) (pip install torchfile) for a "
        'Lua .t7 file', 'torch.utils.serialization is gone', _TORCH_1, None),
    Row('torch.utils.serialization.load_lua', "torchfile.load(path) (pip install torchfile), "
        'then torch.from_numpy on the arrays it returns', 'load_lua is gone', _TORCH_1,
        None),
    Row('torch.utils.trainer', 'a training loop of your own (or pytorch/tnt, ignite)',
        'torch.utils.trainer is gone', _TORCH_1, None),
    Row('torch._six', 'the Python 3 names of its rows (string_classes: (str, bytes), '
        'int_classes: int, container_abcs: collections.abc...)', 'torch._six is gone', _TORCH_2,
        None),
    *[Row('torch._six.' + name, new, 'torch._six is gone', _TORCH_2, fix)
      for name, new, fix in _TORCH_SIX],
    Row('torch.utils.data.dataloader.numpy_type_map', _NUMPY_TYPE_MAP,
        'torch.from_numpy(a) makes the tensor of a\'s type itself', 'PyTorch 1.1', 'value'),
    Row('torch.utils.data.dataloader._use_shared_memory',
        'torch.utils.data.get_worker_info() is not None',
        'it was True in DataLoader worker processes', 'PyTorch 1.1', None),
    Row('torch.utils.data.dataloader.DataLoaderIter',
        "iter(loader) (the iterator's classes are private since 1.1)", '', 'PyTorch 1.1', None),
    Row('torch.utils.data.dataloader._DataLoaderIter',
        "iter(loader) (the iterator's classes are private since 1.1)", '', 'PyTorch 1.1', None),
    *[Row('torch.' + old, new, '', 'PyTorch 1.9', None) for old, new in (
        ('lstsq', 'torch.linalg.lstsq(A, B).solution (the arguments swapped)'),
        ('solve', 'torch.linalg.solve(A, B) (the arguments swapped, no LU returned)'),
        ('matrix_rank', 'torch.linalg.matrix_rank(A)'))],
    # -- PyTorch 0.3.1 and 0.4.1's Python API --------------------------------
    # tools/py_surface/surface.tsv lists it; tools/py_coverage.py fails when
    # a name of it that today's PyTorch lacks has no row here.
    *[Row('torch.' + name, 'thffi.torch041.' + name, 'today: ' + today, removed, 'rename')
      for name, today, removed in _TORCH041_FUNCTIONS if name != 'fft'],
    *[Row('.' + name, 'thffi.torch041.' + name, "a tensor's %s is gone; today: %s"
          % (name, today), removed, 'method') for name, today, removed in _TORCH041_FUNCTIONS
      if name in _TORCH041_METHODS],
    Row('torch.fft()', 'thffi.torch041.fft', 'torch.fft is the module of the new FFTs; '
        'today: torch.view_as_real(torch.fft.fftn(torch.view_as_complex(x), dim=...))',
        'PyTorch 1.8', 'rename'),
    Row('torch.tensor:', "torch.Tensor (0.3.1's module torch.tensor held the tensor classes' "
        'Python methods)', 'torch.tensor is a function today', 'PyTorch 0.4', None),
    Row('.masked_copy_', '.masked_scatter_', 'renamed', 'PyTorch 0.4', 'rename'),
    Row('.masked_copy', '.masked_scatter', 'renamed', 'PyTorch 0.4', 'rename'),
    Row('torch.nn.modules.loss._assert_no_grad', 'thffi.torch041._assert_no_grad',
        'a loss checks nothing of its target today; write `assert not target.requires_grad`',
        _AFTER_041, 'rename'),
    Row('torch.autograd.function.NestedIOFunction', 'thffi.legacy.NestedIOFunction',
        "today's class is a stub: its call raises", _AFTER_041, 'rename'),
    Row('torch.autograd.NestedIOFunction', 'thffi.legacy.NestedIOFunction',
        "today's class is a stub: its call raises", _AFTER_041, 'rename'),
    Row('torch.nn._functions', "torch.nn.functional's functions and torch.nn's modules "
        '(F.dropout, F.embedding, F.grid_sample, F.max_pool3d, F.pad, nn.LSTM...): the '
        'autograd Function classes behind them are C++ now', 'torch.nn._functions is gone',
        _AFTER_041, None),
    *[Row('torch.nn._functions.rnn.' + name, 'thffi.torch041.' + name,
          'today: torch.nn.%s (a module) or its weights through torch.nn.functional'
          % name.replace('Tanh', '').replace('ReLU', ''), _AFTER_041, 'rename')
      for name in ('LSTMCell', 'GRUCell', 'RNNTanhCell', 'RNNReLUCell')],
    Row('torch.nn.backends', 'torch.nn.functional (the THNN backend classes are gone)',
        "the THNN backend's classes are gone", _AFTER_041, None),
    Row('torch.nn.backends.thnn', 'torch.nn.functional (the THNN backend classes are gone)',
        "the THNN backend's classes are gone", _AFTER_041, None),
    *[Row(old, new, why, _AFTER_041, None) for old, new, why in _GONE_041],
    *[Row(old, new, 'renamed', _AFTER_041, 'rename') for old, new in _MOVED_041],
    *[Row(old + '(%s=)' % keyword, new, why, _AFTER_041, fix)
      for old, keyword, new, why, fix in _KEYWORDS_041],
]


def find(name):
    """The REMOVED row for a qualified name: the row of the name itself, else
    of the nearest module holding it; None if nothing holds it."""
    while name:
        if name in _BY_NAME:
            return _BY_NAME[name]
        name = name.rpartition('.')[0]
    return None


_BY_NAME = {row.old: row for row in REMOVED}
# The first component of each qualified name REMOVED matches.
MODULES = frozenset(row.old.split('.')[0] for row in REMOVED
                    if not row.old.startswith(('.', 'self.')))
# Methods matched by name alone: on any object, or on self.
METHODS = {row.old[1:]: row for row in REMOVED
           if row.old.startswith('.') and '(' not in row.old}
SELF_METHODS = {row.old[5:]: row for row in REMOVED if row.old.startswith('self.')}
# Keyword arguments: (owner, keyword) -> row; owner '.m' is a method m.
KEYWORDS = {tuple(row.old[:-2].split('(')): row for row in REMOVED if row.old.endswith('=)')}
# Rows of a name that is something else today, matched only where it is
# used as it was: a call (`torch.fft(x, 2)`: torch.fft is the module of the
# new FFTs) or an import (0.3.1's module torch.tensor: a function today).
CALLS = {row.old[:-2]: row for row in REMOVED if row.old.endswith('()')}
IMPORTS = {row.old[:-1]: row for row in REMOVED if row.old.endswith(':')}
# Names today's PyTorch keeps only as a stub that raises (NestedIOFunction:
# a class whose call raises "'super' object has no attribute
# '_do_forward'"): `python -m thffi run` puts their row's equivalent in
# their place, not only where the name is missing.
STUBS = frozenset({'torch.symeig', 'torch.eig', '.symeig', '.eig',
                   'torch.autograd.function.NestedIOFunction',
                   'torch.autograd.NestedIOFunction'})
# The class of each method row whose old name `python -m thffi run` gives
# back (a class written in Python takes a new attribute; array.array's and
# numpy.ndarray's tostring are C types, which do not); a tensor's methods
# and their keywords (0.3.1's Variable's too: Variable(x) is a Tensor).
METHOD_CLASSES = {'.isAlive': 'threading.Thread', '.readfp': 'configparser.RawConfigParser',
                  **{'self.' + old: 'unittest.TestCase' for old, _ in _UNITTEST},
                  **{'.' + name: 'torch.Tensor' for name in _TORCH041_METHODS},
                  '.masked_copy_': 'torch.Tensor', '.masked_copy': 'torch.Tensor',
                  **{'%s(%s=)' % (owner, keyword): 'torch.Tensor'
                     for owner, keyword, _, _, _ in _KEYWORDS_041 if owner.startswith('.')}}
