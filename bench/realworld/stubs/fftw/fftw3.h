// Declarations-only stand-in for FFTW3's fftw3.h (bench/realworld stub:
// libfftw3-dev is not installed; rocFFT's test helpers only need these to
// parse). Never linked or run.
#pragma once
#include <stddef.h>
#define FFTW_FORWARD (-1)
#define FFTW_BACKWARD (+1)
#define FFTW_ESTIMATE (1U << 6)
#define FFTW_MEASURE (0U)
#define FFTW_PRESERVE_INPUT (1U << 4)
#define FFTW_DESTROY_INPUT (1U << 0)
#define FFTW_UNALIGNED (1U << 1)
extern "C" {
typedef double fftw_complex[2];
typedef float fftwf_complex[2];
typedef struct fftw_plan_s *fftw_plan;
typedef struct fftwf_plan_s *fftwf_plan;
typedef struct {
  ptrdiff_t n, is, os;
} fftw_iodim64;
typedef fftw_iodim64 fftwf_iodim64;
void *fftw_malloc(size_t n);
void fftw_free(void *p);
double *fftw_alloc_real(size_t n);
fftw_complex *fftw_alloc_complex(size_t n);
float *fftwf_alloc_real(size_t n);
fftwf_complex *fftwf_alloc_complex(size_t n);
void fftwf_free(void *p);
void fftw_execute(const fftw_plan p);
void fftwf_execute(const fftwf_plan p);
void fftw_destroy_plan(fftw_plan p);
void fftwf_destroy_plan(fftwf_plan p);
void fftw_cleanup(void);
void fftwf_cleanup(void);
char *fftw_sprint_plan(const fftw_plan p);
char *fftwf_sprint_plan(const fftwf_plan p);
fftw_plan fftw_plan_guru64_dft(int rank, const fftw_iodim64 *dims,
                               int howmany_rank,
                               const fftw_iodim64 *howmany_dims,
                               fftw_complex *in, fftw_complex *out, int sign,
                               unsigned flags);
fftwf_plan fftwf_plan_guru64_dft(int rank, const fftwf_iodim64 *dims,
                                 int howmany_rank,
                                 const fftwf_iodim64 *howmany_dims,
                                 fftwf_complex *in, fftwf_complex *out,
                                 int sign, unsigned flags);
fftw_plan fftw_plan_guru64_dft_r2c(int rank, const fftw_iodim64 *dims,
                                   int howmany_rank,
                                   const fftw_iodim64 *howmany_dims,
                                   double *in, fftw_complex *out,
                                   unsigned flags);
fftwf_plan fftwf_plan_guru64_dft_r2c(int rank, const fftwf_iodim64 *dims,
                                     int howmany_rank,
                                     const fftwf_iodim64 *howmany_dims,
                                     float *in, fftwf_complex *out,
                                     unsigned flags);
fftw_plan fftw_plan_guru64_dft_c2r(int rank, const fftw_iodim64 *dims,
                                   int howmany_rank,
                                   const fftw_iodim64 *howmany_dims,
                                   fftw_complex *in, double *out,
                                   unsigned flags);
fftwf_plan fftwf_plan_guru64_dft_c2r(int rank, const fftwf_iodim64 *dims,
                                     int howmany_rank,
                                     const fftwf_iodim64 *howmany_dims,
                                     fftwf_complex *in, float *out,
                                     unsigned flags);
void fftw_execute_dft(const fftw_plan p, fftw_complex *in, fftw_complex *out);
void fftwf_execute_dft(const fftwf_plan p, fftwf_complex *in,
                       fftwf_complex *out);
void fftw_execute_dft_r2c(const fftw_plan p, double *in, fftw_complex *out);
void fftwf_execute_dft_r2c(const fftwf_plan p, float *in, fftwf_complex *out);
void fftw_execute_dft_c2r(const fftw_plan p, fftw_complex *in, double *out);
void fftwf_execute_dft_c2r(const fftwf_plan p, fftwf_complex *in, float *out);
}
