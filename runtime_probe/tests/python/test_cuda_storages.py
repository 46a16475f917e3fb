#!/usr/bin/env python3
"""The PyTorch hook's registry of live CUDA storages (_CudaStorages in
runtime_probe/python/capture_probe_torch.py), against CPython's real
garbage collector and a stand-in `torch` module: a tensor made after the
first walk is found whether it is still young or was promoted by
collections of either generation since; a storage that died is not; CPU
tensors and other objects are left out.

usage: test_cuda_storages.py PYTHON_HOOK_DIR"""
import gc
import sys
import types
import unittest


class Storage:
    def __init__(self, address):
        self.address = address

    def data_ptr(self):
        return self.address


class Tensor:
    def __init__(self, address, cuda=True):
        self.is_cuda = cuda
        self._storage = Storage(address)

    def untyped_storage(self):
        return self._storage


class Parameter(Tensor):
    pass


def stand_in_torch():
    torch = types.ModuleType("torch")
    torch.Tensor = Tensor
    torch.nn = types.ModuleType("torch.nn")
    torch.nn.Parameter = Parameter
    return torch


class CudaStoragesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.modules["torch"] = stand_in_torch()
        sys.modules["torch.nn"] = sys.modules["torch"].nn
        import capture_probe_torch
        cls.hook = capture_probe_torch

    def addresses(self, storages):
        return sorted(s.data_ptr() for s in storages.live())

    def test_tensors_made_after_the_first_walk_are_found(self):
        before = Tensor(0x1000)
        cpu = Tensor(0x2000, cuda=False)
        storages = self.hook._CudaStorages()
        try:
            self.assertIn(0x1000, self.addresses(storages))
            self.assertNotIn(0x2000, self.addresses(storages))
            young = Tensor(0x3000)
            self.assertIn(0x3000, self.addresses(storages))
            promoted_once = Parameter(0x4000)
            gc.collect(0)  # into generation 1
            promoted_twice = Tensor(0x5000)
            gc.collect(0)
            gc.collect(1)  # into generation 2
            # Not found by the capture's own look at young objects: only
            # the callback saw these before they grew old.
            gc.disable()
            self.assertNotIn(promoted_twice, gc.get_objects(generation=0))
            self.assertNotIn(promoted_twice, gc.get_objects(generation=1))
            gc.enable()
            found = self.addresses(storages)
            for address in (0x3000, 0x4000, 0x5000):
                self.assertIn(address, found)
            del young, promoted_once
            gc.collect()
            found = self.addresses(storages)
            self.assertNotIn(0x3000, found)
            self.assertNotIn(0x4000, found)
            self.assertIn(0x5000, found)
            del before, cpu, promoted_twice
        finally:
            if storages._before_collection in gc.callbacks:
                gc.callbacks.remove(storages._before_collection)


if __name__ == "__main__":
    sys.path.insert(0, sys.argv.pop(1))
    unittest.main()
