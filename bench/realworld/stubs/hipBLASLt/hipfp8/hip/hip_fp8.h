// Stub for <hip/hip_fp8.h> (capture-lint scout): HIP 5.2 on this machine has none.
// The users scouted (hipBLASLt) only touch __hip_fp8_* inside gfx12-only device code,
// which a host-only parse never sees; declarations only.
#pragma once
struct __hip_fp8_e4m3;
struct __hip_fp8_e5m2;
struct __hip_fp8_e4m3_fnuz;
struct __hip_fp8_e5m2_fnuz;
