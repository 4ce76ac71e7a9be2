#include "HardwareCRC32C.h"
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>

int hardware_crc32c_available(void) {
    return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2")))
uint32_t hardware_crc32c_update(uint32_t state, const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    uint64_t c = state;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = _mm_crc32_u64(c, word);
        p += 8;
        length -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (length > 0) {
        c32 = _mm_crc32_u8(c32, *p);
        p += 1;
        length -= 1;
    }
    return c32;
}

#elif defined(__aarch64__) && defined(__linux__)
#include <arm_acle.h>
#include <sys/auxv.h>
#include <asm/hwcap.h>

int hardware_crc32c_available(void) {
    return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
}

__attribute__((target("crc")))
uint32_t hardware_crc32c_update(uint32_t state, const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    uint32_t c = state;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = __crc32cd(c, word);
        p += 8;
        length -= 8;
    }
    while (length > 0) {
        c = __crc32cb(c, *p);
        p += 1;
        length -= 1;
    }
    return c;
}

#else

int hardware_crc32c_available(void) { return 0; }

uint32_t hardware_crc32c_update(uint32_t state, const void *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return state;
}

#endif
