// Minimal MPI declarations so that MPI test drivers parse (bench/realworld
// stub; extended by the capture-lint scout with a few more MPI-3 names), not an MPI implementation: nothing here is ever linked or run).
#pragma once
typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Info;
typedef struct MPI_Status { int MPI_SOURCE, MPI_TAG, MPI_ERROR; } MPI_Status;
#define MPI_COMM_TYPE_SHARED 1
#define MPI_INFO_NULL 0
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_UINT64_T 8
#define MPI_UNSIGNED 9
#define MPI_LONG_LONG 10
#define MPI_COMM_WORLD 0
#define MPI_SUCCESS 0
#define MPI_BYTE 1
#define MPI_INT 2
#define MPI_FLOAT 3
#define MPI_CHAR 4
#define MPI_DOUBLE 5
#define MPI_LONG 6
#define MPI_UNSIGNED_LONG 7
#define MPI_DATATYPE_NULL 0
#define MPI_SUM 1
#define MPI_MAX 2
#define MPI_MIN 3
#define MPI_IN_PLACE ((void *)1)
extern "C" {
int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Abort(MPI_Comm comm, int code);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm);
int MPI_Allreduce(const void *in, void *out, int count, MPI_Datatype t,
                  MPI_Op op, MPI_Comm comm);
int MPI_Allgather(const void *in, int inCount, MPI_Datatype inType, void *out,
                  int outCount, MPI_Datatype outType, MPI_Comm comm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out);
int MPI_Gather(const void *in, int inCount, MPI_Datatype inType, void *out,
               int outCount, MPI_Datatype outType, int root, MPI_Comm comm);
int MPI_Send(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st);
}
