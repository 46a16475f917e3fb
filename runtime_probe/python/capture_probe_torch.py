"""capture-probe's hook into PyTorch: graphs that replay dead tensors.

PyTorch's caching allocator never calls cudaFree when a tensor dies: the
block goes back to the allocator's pool and the next tensor of that size
gets it. A graph captured with the tensor's address baked in then reads or
writes someone else's memory at its next replay, and CUDA sees nothing. This
hook lets the probe see it:

* when a capture ends (CUDAGraph.capture_end, which instantiates the graph),
  it looks at the live CUDA tensors' storages (_CudaStorages: found by the
  garbage collector's lists once, then only among its young objects) that
  lie in the caching
  allocator's ordinary memory (not a graph's private pool, where a graph's
  own tensors live and may die: the pool stays the graph's), and asks the
  probe, which read the graph's nodes, which of those storages the graph
  uses (capture_probe_exec_uses). It keeps a weak reference to each: one
  from the allocator's side (StorageWeakRef, which says whether the storage
  is gone) and one on the storage's Python object, whose callback notes
  where the last Python reference went (the site of the free);
* before each replay (CUDAGraph.replay) of such a graph it checks those
  storages; a released one is reported to the probe (capture_probe_released)
  with the node that uses it and that site, and the probe reports the
  replay's launch as it reports a launch after cudaFree.

Nothing is done for graphs that Inductor's CUDA graph trees capture
(torch.compile(mode="reduce-overhead")): they keep their own inputs in the
graph's pool and check their static inputs' addresses before each replay.
The hook changes no tensor's lifetime (only weak references are kept) and
no computation; a failure inside it is swallowed.

It also records where the nodes of the modules Inductor generates come from
(patch_compile_fx), so that the probe maps call sites in generated code
back to the user's lines.
"""
import ctypes
import functools
import gc
import json
import os
import re
import sys
import threading
import weakref

_ATTR = "_capture_probe_watch"
_TREES = os.path.join("_inductor", "cudagraph_trees.py")
_lib = None
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def watch_imports():
    """Installs the hooks once their PyTorch modules have been imported."""
    sys.meta_path.insert(0, _Finder({
        "torch.cuda.graphs": lambda m: patch(m.CUDAGraph),
        "torch._inductor.compile_fx": patch_compile_fx,
    }))


class _Finder:
    """Finds the modules named with the other finders and patches each once
    it has run."""

    def __init__(self, patches):
        self.patches = patches

    def find_spec(self, name, path=None, target=None):
        # A spec may be asked for and never loaded (importlib.util.find_spec):
        # a module is patched, and forgotten, when it runs.
        if name not in self.patches:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find and finder is not self \
                else None
            if spec is not None:
                break
        else:
            return None
        exec_module = getattr(spec.loader, "exec_module", None)
        if exec_module is None:
            return spec

        def exec_and_patch(module):
            exec_module(module)
            patch_module = self.patches.pop(name, None)
            if not self.patches and self in sys.meta_path:
                sys.meta_path.remove(self)
            try:
                if patch_module:
                    patch_module(module)
                    _debug("patched %s" % name)
            except Exception as e:
                sys.stderr.write("capture-probe: PyTorch hook: %s\n" % e)

        spec.loader.exec_module = exec_and_patch
        return spec


def patch(cls):
    """Wraps cls.capture_end and cls.replay (torch.cuda.CUDAGraph)."""
    capture_end, replay = cls.capture_end, cls.replay

    @functools.wraps(capture_end)
    def capture_end_watched(self, *args, **kwargs):
        capture_end(self, *args, **kwargs)
        try:
            _watch(self)
        except Exception:
            pass

    @functools.wraps(replay)
    def replay_checked(self, *args, **kwargs):
        watch = getattr(self, "__dict__", {}).get(_ATTR)
        if watch:
            try:
                _check(self, watch)
            except Exception:
                pass
        return replay(self, *args, **kwargs)

    cls.capture_end = capture_end_watched
    cls.replay = replay_checked


def _debug(text):
    """CAPTURE_PROBE_TORCH_DEBUG=1: what the hook does, on stderr."""
    if os.environ.get("CAPTURE_PROBE_TORCH_DEBUG"):
        sys.stderr.write("capture-probe: torch hook: %s\n" % text)


def _probe():
    """The probe's injection library, if the CUDA driver loaded it."""
    global _lib
    path = os.environ.get("CUDA_INJECTION64_PATH")
    if _lib is None and path:
        try:
            lib = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_NOW)
            lib.capture_probe_exec_uses.restype = ctypes.c_uint
            lib.capture_probe_exec_uses.argtypes = [ctypes.c_uint64] * 3
            lib.capture_probe_released.restype = ctypes.c_int
            lib.capture_probe_released.argtypes = [ctypes.c_uint64] * 3 + [
                ctypes.c_char_p]
            _lib = lib
        except (OSError, AttributeError):
            return None
    return _lib


def _frames(frame, limit=32):
    """frame and its callers as "file:line:function", innermost first."""
    out = []
    while frame is not None and len(out) < limit:
        code = frame.f_code
        out.append("%s:%d:%s" % (code.co_filename, frame.f_lineno,
                                 code.co_name))
        frame = frame.f_back
    return out


def _made_by_graph_trees():
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.endswith(_TREES):
            return True
        frame = frame.f_back
    return False


def _ordinary_segments(torch):
    """The caching allocator's segments outside private pools, as sorted
    (start, end) pairs."""
    out = []
    for seg in torch.cuda.memory._snapshot()["segments"]:
        if tuple(seg.get("segment_pool_id", (0, 0))) == (0, 0):
            out.append((seg["address"], seg["address"] + seg["total_size"]))
    out.sort()
    return out


def _inside(segments, address):
    lo, hi = 0, len(segments)
    while lo < hi:
        mid = (lo + hi) // 2
        if segments[mid][1] <= address:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(segments) and segments[lo][0] <= address


class _Storage:
    """A storage a graph uses, watched without keeping it alive."""
    __slots__ = ("alive", "seen", "address", "size", "site", "__weakref__")

    def __init__(self, storage, address, size):
        from torch.multiprocessing.reductions import StorageWeakRef
        self.alive = StorageWeakRef(storage)
        self.address, self.size, self.site = address, size, None
        me = weakref.ref(self)

        def released(_, me=me):
            watched = me()
            try:
                if watched is not None:
                    watched.site = _frames(sys._getframe(1))
            except Exception:  # at interpreter exit
                pass

        self.seen = weakref.ref(storage, released)


class _CudaStorages:
    """The storages of the CUDA tensors the program has made, weakly, by
    identity. Walking every object the collector tracks at each capture cost
    about 0.1 s after Inductor's import (265k objects); instead the first
    capture walks them once, and from then on only young objects are read:
    those of the generations a collection is about to promote (a callback
    run before each collection) and, at each capture, those still young.
    An object reaches the old generation only through such a promotion, so
    no tensor made since the first walk is missed."""

    def __init__(self):
        import torch
        self._kinds = (torch.Tensor, torch.nn.Parameter)
        self._storages = weakref.WeakValueDictionary()
        self._note(gc.get_objects())
        gc.callbacks.append(self._before_collection)

    def _note(self, objects):
        kinds, storages = self._kinds, self._storages
        for obj in objects:
            if type(obj) not in kinds or not obj.is_cuda:
                continue
            try:
                storage = obj.untyped_storage()
                storages[id(storage)] = storage
            except Exception:  # no storage (sparse, nested, ...)
                continue

    def _young(self, oldest):
        for generation in range(oldest + 1):
            self._note(gc.get_objects(generation=generation))

    def _before_collection(self, phase, info):
        if phase == "start":
            try:
                # Survivors of generations 0 and 1 move on; 2 is the last.
                self._young(min(info["generation"], 1))
            except Exception:
                pass

    def live(self):
        """The live storages, young objects' included."""
        self._young(1)
        return list(self._storages.values())


_storages = None


def _watch(graph):
    """After capture_end: the storages outside private pools that the
    graph's nodes use, kept on the graph."""
    global _storages
    lib = _probe()
    if lib is None or _made_by_graph_trees():
        return
    import torch
    try:
        exec_handle = graph.raw_cuda_graph_exec()
    except Exception:  # keep_graph=True: not instantiated yet
        return
    if _storages is None:
        _storages = _CudaStorages()
    segments = _ordinary_segments(torch)
    seen, watched = set(), []
    for storage in _storages.live():
        try:
            address, size = storage.data_ptr(), storage.nbytes()
        except Exception:
            continue
        if not address or not size or address in seen:
            continue
        seen.add(address)
        if _inside(segments, address) and \
                lib.capture_probe_exec_uses(exec_handle, address, size):
            watched.append(_Storage(storage, address, size))
    graph.__dict__[_ATTR] = (exec_handle, watched) if watched else None
    _debug("watching %d storages that graph exec 0x%x uses" %
           (len(watched), exec_handle))


def _check(graph, watch):
    """Before a replay: the first watched storage released since the
    capture, reported once."""
    exec_handle, watched = watch
    for s in watched:
        if s.alive.expired():
            site = "\n".join(s.site or []).encode()
            _probe().capture_probe_released(exec_handle, s.address, s.size,
                                            site)
            graph.__dict__[_ATTR] = None
            return


# torch.compile: where each generated module's nodes come from.
_compiling = threading.local()


def patch_compile_fx(module):
    """Wraps Inductor's compile_fx, which gets Dynamo's FX graph (whose nodes
    carry the user's stack), and PyCodeCache.load_by_key_path, which loads
    the modules Inductor generates for it: each module loaded during a
    compile_fx is written with its nodes' locations to a ".inductor" file
    beside the probe's event logs (forward graphs; a backward graph is
    compiled later, at the first backward, and is not recorded)."""
    compile_fx = module.compile_fx
    from torch._inductor.codecache import PyCodeCache
    load = PyCodeCache.load_by_key_path

    @functools.wraps(compile_fx)
    def compile_fx_recorded(model, *args, **kwargs):
        stack = getattr(_compiling, "nodes", None)
        if stack is None:
            stack = _compiling.nodes = []
        try:
            stack.append(_node_locations(model))
        except Exception as e:
            _debug("no node locations: %r" % e)
            stack.append({})
        try:
            return compile_fx(model, *args, **kwargs)
        finally:
            stack.pop()

    def load_recorded(cls, *args, **kwargs):
        loaded = load(*args, **kwargs)
        stack = getattr(_compiling, "nodes", None)
        if stack and stack[-1]:
            try:
                _record_generated(getattr(loaded, "__file__", None), stack[-1])
            except Exception:
                pass
        return loaded

    module.compile_fx = compile_fx_recorded
    PyCodeCache.load_by_key_path = classmethod(
        functools.wraps(load)(load_recorded))


def _node_locations(model):
    """Node name -> "file:line:function" of its innermost user frame."""
    out = {}
    for node in model.graph.nodes:
        frames = _FRAME.findall(node.meta.get("stack_trace") or "")
        user = [f for f in frames if "-packages/" not in f[0]] or frames
        if user:
            out[node.name] = "%s:%s:%s" % user[-1]  # the innermost
    return out


def _record_generated(path, nodes):
    log = os.environ.get("CAPTURE_PROBE_LOG")
    if not path or not log:
        return
    name = os.path.join(os.path.dirname(log), "sources.%d.inductor" % os.getpid())
    with open(name, "a") as f:
        f.write(json.dumps({"generated": path, "nodes": nodes}) + "\n")
    _debug("%d nodes' locations for %s" % (len(nodes), path))
