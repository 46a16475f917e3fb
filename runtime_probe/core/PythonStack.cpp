//===- PythonStack.cpp - CPython frames through dlsym ---------------------===//

#include "capture_probe/PythonStack.h"
#include <cstdlib>
#include <dlfcn.h>

namespace capture_probe {

bool isLibraryPythonFile(const std::string &File) {
  return File.empty() || File[0] == '<' ||
         File.find("/site-packages/") != std::string::npos ||
         File.find("/dist-packages/") != std::string::npos ||
         File.find("/lib/python3") != std::string::npos ||
         File.find("/capture_probe_python/") != std::string::npos;
}

std::vector<std::string> userPythonFrames(const std::string &Lines,
                                          unsigned Max) {
  std::vector<std::string> Out;
  size_t Start = 0;
  while (Start < Lines.size() && Out.size() < Max) {
    size_t End = Lines.find('\n', Start);
    if (End == std::string::npos)
      End = Lines.size();
    std::string Frame = Lines.substr(Start, End - Start);
    Start = End + 1;
    size_t Fn = Frame.rfind(':');
    size_t Ln = Fn == std::string::npos || Fn == 0 ? std::string::npos
                                                   : Frame.rfind(':', Fn - 1);
    if (Ln != std::string::npos && !isLibraryPythonFile(Frame.substr(0, Ln)))
      Out.push_back(std::move(Frame));
  }
  return Out;
}

namespace {

/// The stable C API calls used, looked up once in the running process.
struct PyApi {
  int (*IsInitialized)();
  void *(*CurrentThreadState)(); // null unless this thread holds the GIL
  void *(*ThreadStateFrame)(void *);
  void *(*FrameCode)(void *);
  void *(*FrameBack)(void *);
  int (*FrameLine)(void *);
  void *(*GetAttr)(void *, const char *);
  const char *(*Utf8)(void *);
  void (*DecRef)(void *);
  void (*ErrClear)();
  void *(*ThisThreadState)(); // the thread's state, held or not
  int (*Ensure)();
  void (*Release)(int);
};

template <typename T> bool find(T &Fn, const char *Name) {
  Fn = reinterpret_cast<T>(dlsym(RTLD_DEFAULT, Name));
  return Fn != nullptr;
}

const PyApi *pyApi() {
  static const PyApi *Api = []() -> const PyApi * {
    static PyApi A;
    if (!find(A.IsInitialized, "Py_IsInitialized"))
      return nullptr; // not a Python process
    // PyThreadState_GetUnchecked (3.13) or _PyThreadState_UncheckedGet:
    // unlike PyThreadState_Get, they return null instead of aborting.
    if (!find(A.CurrentThreadState, "PyThreadState_GetUnchecked") &&
        !find(A.CurrentThreadState, "_PyThreadState_UncheckedGet"))
      return nullptr;
    if (!find(A.ThreadStateFrame, "PyThreadState_GetFrame") ||
        !find(A.FrameCode, "PyFrame_GetCode") ||
        !find(A.FrameBack, "PyFrame_GetBack") ||
        !find(A.FrameLine, "PyFrame_GetLineNumber") ||
        !find(A.GetAttr, "PyObject_GetAttrString") ||
        !find(A.Utf8, "PyUnicode_AsUTF8") || !find(A.DecRef, "Py_DecRef") ||
        !find(A.ErrClear, "PyErr_Clear") ||
        !find(A.ThisThreadState, "PyGILState_GetThisThreadState") ||
        !find(A.Ensure, "PyGILState_Ensure") ||
        !find(A.Release, "PyGILState_Release"))
      return nullptr;
    return &A;
  }();
  return Api;
}

std::string attribute(const PyApi &A, void *Code, const char *Name) {
  void *V = A.GetAttr(Code, Name);
  if (!V) {
    A.ErrClear();
    return "";
  }
  const char *S = A.Utf8(V);
  std::string Out = S ? S : "";
  if (!S)
    A.ErrClear();
  A.DecRef(V);
  return Out;
}

} // namespace

static void walk(const PyApi &PA, void *State, unsigned Max,
                 std::vector<std::string> &Out);

/// Whether the GIL may be taken to read a thread's frames when the thread
/// released it around the CUDA call (PyTorch does for most operators):
/// CAPTURE_PROBE_PYTHON_GIL=0 turns that off.
static bool mayTakeGil() {
  static const bool May = [] {
    const char *V = std::getenv("CAPTURE_PROBE_PYTHON_GIL");
    return !(V && std::string(V) == "0");
  }();
  return May;
}

std::vector<std::string> pythonStack(unsigned Max) {
  std::vector<std::string> Out;
  const PyApi *A = pyApi();
  if (!A || !A->IsInitialized())
    return Out;
  void *State = A->CurrentThreadState();
  int Taken = -1;
  if (!State) {
    // A Python thread that released the GIL around this call: take it back
    // for the walk. Threads Python never ran on have no state: nothing.
    if (!mayTakeGil() || !A->ThisThreadState())
      return Out;
    Taken = A->Ensure();
    State = A->CurrentThreadState();
  }
  if (State)
    walk(*A, State, Max, Out);
  if (Taken >= 0)
    A->Release(Taken);
  return Out;
}

static void walk(const PyApi &PA, void *State, unsigned Max,
                 std::vector<std::string> &Out) {
  const PyApi *A = &PA;
  void *Frame = A->ThreadStateFrame(State); // new reference
  for (unsigned Depth = 0; Frame && Out.size() < Max && Depth < 256; ++Depth) {
    void *Code = A->FrameCode(Frame); // new reference
    if (Code) {
      std::string File = attribute(*A, Code, "co_filename");
      if (!isLibraryPythonFile(File))
        Out.push_back(File + ":" + std::to_string(A->FrameLine(Frame)) + ":" +
                      attribute(*A, Code, "co_name"));
      A->DecRef(Code);
    }
    void *Back = A->FrameBack(Frame); // new reference
    A->DecRef(Frame);
    Frame = Back;
  }
  if (Frame)
    A->DecRef(Frame);
}

} // namespace capture_probe
