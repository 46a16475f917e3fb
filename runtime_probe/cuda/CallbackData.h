//===- CallbackData.h - What a CUPTI callback says ----------- -*- C++ -*-===//
//
// Pure readings of CUPTI's callback ids and parameter structs (both APIs),
// for the CUPTI backend: no state, no CUDA calls.
//
//===----------------------------------------------------------------------===//

#ifndef CAPTURE_PROBE_CUDA_CALLBACKDATA_H
#define CAPTURE_PROBE_CUDA_CALLBACKDATA_H

#include "capture_probe/Event.h"
#include <cuda.h>
#include <cupti.h>

namespace capture_probe {

/// The calls the probe follows outside captures, whatever is capturing.
enum class Lifecycle {
  None,
  Instantiate,
  Launch,
  Update,
  ExecDestroy,
  Kernel,
  Alloc,
  Free
};

/// The probe's name of a graph node type (the report's "kernel", "memcpy").
const char *nodeTypeName(CUgraphNodeType T);

/// cudaError_t names of the codes a capture produces, and the common ones.
const char *runtimeErrorName(int Code);

/// The begin/end/exchange calls of both APIs, with where their parameters
/// are. Returns Call for everything else.
EventKind kindOf(CUpti_CallbackDomain Domain, CUpti_CallbackId Id);

/// Stream, mode and to-graph of a begin call. Every begin's parameter
/// struct starts with the stream; the mode's place differs.
void readBegin(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
               const void *Params, Event &E);

/// The mode an exchange-mode call asks for, read at its entry (at its exit
/// the pointer holds the previous mode); -1 if none.
int exchangeModeAsked(CUpti_CallbackDomain Domain, const void *Params);

/// Driver calls that only look things up (kernels, functions, attributes,
/// entry points, a graph's nodes and their parameters): the CUDA runtime
/// makes them around its launches, and with the static runtime its frames
/// are the program's, so madeByRuntimeLibrary cannot tell; the probe makes
/// them itself to read graphs. Nothing they do matters to a capture. Never
/// events, and their callbacks are off (skipUnneededCallbacks).
bool isLookup(const char *Name);

/// The call's result at its exit callback: cudaError_t or CUresult.
int returnValue(CUpti_CallbackDomain Domain, const CUpti_CallbackData *Data);

/// Which part of the graph and memory lifecycle a call is, if any.
Lifecycle lifecycleOf(CUpti_CallbackDomain Domain, CUpti_CallbackId Id);

/// Whether a graph call may change a graph's nodes (\p Rest: its name past
/// "cudaGraph" or "cuGraph"): all but those that instantiate, launch,
/// upload, clone or only read. One too many costs a walk; one missed would
/// leave stale addresses.
bool mayChangeGraph(const char *Rest);

/// cudaEventRecord / cudaStreamWaitEvent and their driver twins: which
/// stream and event (for naming the streams a capture forked and never
/// joined). Returns false for other calls.
bool readEventCall(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                   const void *Params, Event &E);

/// The kernel a launch call launches: its first parameter, or its second
/// for the launches that take a configuration first.
uint64_t launchedKernel(CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                        const void *Params);

} // namespace capture_probe

#endif // CAPTURE_PROBE_CUDA_CALLBACKDATA_H
