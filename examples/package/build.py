import os

from thffi import create_extension

this_file = os.path.dirname(__file__)

ffi = create_extension(
    name='my_package._ext.my_lib',
    headers='src/my_lib.h',
    sources=['src/my_lib.c'],
    relative_to=__file__,
    package=True,
)

if __name__ == '__main__':
    ffi.build()
