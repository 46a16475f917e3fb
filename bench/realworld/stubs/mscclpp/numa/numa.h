// Stub <numa.h> (capture-lint scout): libnuma headers are not installed here. Declarations only.
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef struct { unsigned long n[16]; } nodemask_t;
struct bitmask { unsigned long size; unsigned long* maskp; };
int numa_available(void);
void numa_bind(struct bitmask* nodes);
struct bitmask* numa_allocate_nodemask(void);
struct bitmask* numa_bitmask_setbit(struct bitmask*, unsigned int);
void numa_bitmask_free(struct bitmask*);
void nodemask_zero(nodemask_t*);
void nodemask_set_compat(nodemask_t*, int);
void numa_bind_compat(nodemask_t*);
int numa_num_configured_nodes(void);
int numa_node_of_cpu(int cpu);
int numa_run_on_node(int node);
void numa_set_preferred(int node);
int numa_max_node(void);
#ifdef __cplusplus
}
#endif
