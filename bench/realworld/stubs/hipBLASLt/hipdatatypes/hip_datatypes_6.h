// Forced in (-include) by capture-lint scout configs, before any HIP header:
// this machine's HIP 5.2 <hip/library_types.h> knows only six hipDataType
// values, ROCm 6 libraries use more. This declares the ROCm 6 enum (values as
// in ROCm 6) and takes <hip/library_types.h>'s include guard so the old one is
// skipped. Declarations only.
#pragma once
#define HIP_INCLUDE_HIP_LIBRARY_TYPES_H
typedef enum hipDataType {
  HIP_R_32F = 0, HIP_R_64F = 1, HIP_R_16F = 2, HIP_R_8I = 3,
  HIP_C_32F = 4, HIP_C_64F = 5, HIP_C_16F = 6, HIP_C_8I = 7,
  HIP_R_8U = 8, HIP_C_8U = 9, HIP_R_32I = 10, HIP_C_32I = 11,
  HIP_R_32U = 12, HIP_C_32U = 13, HIP_R_16BF = 14, HIP_C_16BF = 15,
  HIP_R_4I = 16, HIP_C_4I = 17, HIP_R_4U = 18, HIP_C_4U = 19,
  HIP_R_16I = 20, HIP_C_16I = 21, HIP_R_16U = 22, HIP_C_16U = 23,
  HIP_R_64I = 24, HIP_C_64I = 25, HIP_R_64U = 26, HIP_C_64U = 27,
  HIP_R_8F_E4M3 = 28, HIP_R_8F_E5M2 = 29,
  HIP_R_8F_E4M3_FNUZ = 1000, HIP_R_8F_E5M2_FNUZ = 1001
} hipDataType;
typedef enum hipLibraryPropertyType {
  HIP_LIBRARY_MAJOR_VERSION,
  HIP_LIBRARY_MINOR_VERSION,
  HIP_LIBRARY_PATCH_LEVEL
} hipLibraryPropertyType;
