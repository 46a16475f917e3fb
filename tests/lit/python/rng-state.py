# RUN: %expect-exit 1 %capture-lint --quiet %s \
# RUN:   | FileCheck %s --implicit-check-not="{{(warning|error|remark)}}:"
# RUN: %expect-exit 0 %capture-lint --quiet --checks=-*,capture-sync-call %s
# RUN: %capture-lint --list-checks | FileCheck %s --check-prefix=LIST
# LIST: capture-rng-state
import torch

torch.manual_seed(0)  # before capture: fine
g = torch.cuda.CUDAGraph()
x = torch.zeros(8, device="cuda")

with torch.cuda.graph(g):
    state = torch.cuda.get_rng_state()
    # CHECK: rng-state.py:[[@LINE-1]]:13: warning: 'torch.cuda.get_rng_state()' reads the CUDA generator's state on the host: in a global-mode capture it runs once, at capture time, and is not recorded in the graph, so replays skip it; read or save the generator state before capture
    torch.manual_seed(1234)
    # CHECK: rng-state.py:[[@LINE-1]]:5: error: 'torch.manual_seed(1234)' changes the CUDA generator's seed or offset: in a global-mode capture it fails with a RuntimeError ("Cannot call CUDAGeneratorImpl::set_current_seed during CUDA graph capture") and invalidates the capture
    torch.cuda.set_rng_state(state)
    # CHECK: rng-state.py:[[@LINE-1]]:5: error: 'torch.cuda.set_rng_state(state)' changes the CUDA generator's seed
    noise = torch.randn(8, device="cuda")  # captured, fresh per replay: fine
    drop = torch.nn.functional.dropout(x, 0.1)  # fine
