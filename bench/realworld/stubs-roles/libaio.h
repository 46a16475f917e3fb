/* Declaration-only stand-in for libaio.h (not installed here); written for
   capture-lint's roles-across-files measurement. */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
typedef struct io_context *io_context_t;
struct iocb { void *data; int aio_fildes; };
struct io_event { void *data; struct iocb *obj; long res; long res2; };
#ifdef __cplusplus
}
#endif
