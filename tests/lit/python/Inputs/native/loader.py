import ctypes

import cffi
import torch

_lib = ctypes.CDLL("libops.so")


class Engine:
    def __init__(self, path):
        self.native = ctypes.cdll.LoadLibrary(path)
        ffi = cffi.FFI()
        self.c = ffi.dlopen(path)

    def capture(self, g, x):
        with torch.cuda.graph(g):
            y = x * 2
            _lib.version()
            self.native.flush_all(0)
            self.c.flush_all(0)
            _lib.flush_all(0)
        return y
