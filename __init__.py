"""The extension-ffi demo as a package: installed with pip (`extension_ffi`),
or copied into another project (e.g. proj/ops/myext/).  As a folder of
scripts, `python build.py && python test.py` work without it."""
