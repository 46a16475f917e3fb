/* Declaration-only stand-in for libnuma's numa.h (not installed here);
   written for capture-lint's roles-across-files measurement. */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
struct bitmask { unsigned long size; unsigned long *maskp; };
struct bitmask *numa_allocate_cpumask(void);
void numa_bitmask_free(struct bitmask *);
int numa_bitmask_isbitset(const struct bitmask *, unsigned int);
int numa_node_of_cpu(int cpu);
int numa_num_possible_cpus(void);
int numa_run_on_node(int node);
void numa_set_preferred(int node);
#ifdef __cplusplus
}
#endif
