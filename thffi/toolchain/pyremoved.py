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
    'call'   - new is a template for the whole call, {0} its one argument,
               {module} the code's own name for old's module
               (`np.asscalar(a)` -> `a.item()`); a call of another shape is
               reported;
    'getargspec' - port/removed.py's one special case (the result's fields);
    None     - reported, with the line and `new`.
  A removed module still imported is also reported in every file that imports
  the file importing it (port/imports.py): importing either fails."""

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
_SCIPY_IMAGES = ('imfilter', 'imrotate', 'imshow', 'toimage', 'fromimage', 'bytescale')
_SCIPY_SPECIAL = ('comb', 'factorial', 'factorial2', 'factorialk', 'logsumexp')
_TORCH_1 = 'PyTorch 1.0'
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
    # -- NumPy --------------------------------------------------------------
    *[Row('numpy.' + old, new, 'the alias of the builtin %s is gone' % new, 'NumPy 1.24',
          'rename') for old, new in _NUMPY_BUILTINS],
    Row('numpy.asscalar', '{0}.item()', '', 'NumPy 1.23', 'call'),
    *[Row('numpy.' + old, 'numpy.' + new, 'the alias is gone', 'NumPy 2.0', 'rename')
      for old, new in _NUMPY2],
    Row('numpy.NINF', '-numpy.inf', '', 'NumPy 2.0', None),
    Row('numpy.msort', '{module}.sort({0}, axis=0)', '', 'NumPy 2.0', 'call'),
    Row('numpy.asfarray', 'numpy.asarray(a, dtype=numpy.float64) (asfarray kept float16 '
        'and float32 as they were)', '', 'NumPy 2.0', None),
    Row('numpy.safe_eval', 'ast.literal_eval', '', 'NumPy 2.0', 'rename'),
    Row('numpy.find_common_type', 'numpy.result_type or numpy.promote_types', '',
        'NumPy 2.0', None),
    # -- SciPy --------------------------------------------------------------
    Row('scipy.misc.imread', 'numpy.asarray(PIL.Image.open(path)) (mode=: .convert(mode) '
        "first; flatten=True: .convert('F')), or imageio.v2.imread(path)", '',
        'SciPy 1.3', None),
    Row('scipy.misc.imsave', 'PIL.Image.fromarray(a).save(path) (imsave scaled the values '
        'to 0-255 first, as bytescale did; a uint8 array is saved as it is)', '',
        'SciPy 1.3', None),
    Row('scipy.misc.imresize', 'numpy.asarray(PIL.Image.fromarray(a).resize((width, '
        'height), PIL.Image.BILINEAR)) (imresize took (rows, cols), a percentage or a '
        'fraction, and returned uint8 scaled to 0-255)', '', 'SciPy 1.3', None),
    *[Row('scipy.misc.' + n, 'PIL.Image', '', 'SciPy 1.3', None) for n in _SCIPY_IMAGES],
    *[Row('scipy.misc.' + n, 'scipy.special.' + n, 'moved', 'SciPy 1.3', 'rename')
      for n in _SCIPY_SPECIAL],
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
METHODS = {row.old[1:]: row for row in REMOVED if row.old.startswith('.')}
SELF_METHODS = {row.old[5:]: row for row in REMOVED if row.old.startswith('self.')}
