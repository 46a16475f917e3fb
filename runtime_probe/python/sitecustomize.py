"""capture-probe's start-up hook for Python programs.

`capture-probe run` puts this folder first on PYTHONPATH, so Python imports
this sitecustomize at start-up. It loads capture_probe_torch (which waits
for PyTorch's torch.cuda.graphs to be imported, and does nothing else), then
hands over to the sitecustomize it shadows (Debian's, a virtual
environment's), if there is one, and takes this folder off sys.path again.
CAPTURE_PROBE_TORCH=0 leaves PyTorch alone.
"""
import importlib
import os
import sys


def _start():
    here = os.path.dirname(os.path.abspath(__file__))
    if os.environ.get("CAPTURE_PROBE_TORCH", "1") != "0":
        try:
            import capture_probe_torch
            capture_probe_torch.watch_imports()
        except Exception as e:  # never stop the program
            sys.stderr.write("capture-probe: PyTorch hook not loaded: %s\n" % e)
    sys.path[:] = [p for p in sys.path
                   if os.path.abspath(p or os.curdir) != here]
    me = sys.modules.pop(__name__, None)
    try:
        importlib.import_module("sitecustomize")  # the one this shadows
    except ModuleNotFoundError as e:
        if e.name != "sitecustomize":
            sys.stderr.write("Error in sitecustomize: %s\n" % e)
        sys.modules[__name__] = me
    except Exception as e:
        sys.stderr.write("Error in sitecustomize: %s\n" % e)
        sys.modules[__name__] = me


_start()
