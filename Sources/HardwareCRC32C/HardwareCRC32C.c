#include "HardwareCRC32C.h"
#include <string.h>

// Each CPU with a CRC-32C instruction gives its check, the target attribute its instructions
// need, and one step over a word and over a byte; the loops below are written once for both.
#if defined(__x86_64__)
#include <nmmintrin.h>
#define CRC32C_HARDWARE 1
#define CRC32C_TARGET __attribute__((target("sse4.2")))

int hardware_crc32c_available(void) {
    return __builtin_cpu_supports("sse4.2");
}

static inline CRC32C_TARGET uint32_t crc32c_word(uint32_t c, uint64_t word) { return (uint32_t)_mm_crc32_u64(c, word); }
static inline CRC32C_TARGET uint32_t crc32c_byte(uint32_t c, unsigned char byte) { return _mm_crc32_u8(c, byte); }

#elif defined(__aarch64__) && defined(__linux__)
#include <arm_acle.h>
#include <sys/auxv.h>
#include <asm/hwcap.h>
#define CRC32C_HARDWARE 1
#define CRC32C_TARGET __attribute__((target("crc")))

int hardware_crc32c_available(void) {
    return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
}

static inline CRC32C_TARGET uint32_t crc32c_word(uint32_t c, uint64_t word) { return __crc32cd(c, word); }
static inline CRC32C_TARGET uint32_t crc32c_byte(uint32_t c, unsigned char byte) { return __crc32cb(c, byte); }

#endif

#if defined(CRC32C_HARDWARE)

CRC32C_TARGET
uint32_t hardware_crc32c_update(uint32_t state, const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    uint32_t c = state;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        c = crc32c_word(c, word);
        p += 8;
        length -= 8;
    }
    while (length > 0) {
        c = crc32c_byte(c, *p);
        p += 1;
        length -= 1;
    }
    return c;
}

CRC32C_TARGET
hardware_crc32c_states hardware_crc32c_update3(hardware_crc32c_states states, const void *a, size_t la, const void *b, size_t lb, const void *c, size_t lc) {
    const unsigned char *p0 = a, *p1 = b, *p2 = c;
    size_t common = la < lb ? la : lb;
    if (lc < common) common = lc;
    common &= ~(size_t)7;
    uint32_t c0 = states.a, c1 = states.b, c2 = states.c;
    for (size_t i = 0; i < common; i += 8) {
        uint64_t w0, w1, w2;
        memcpy(&w0, p0 + i, 8);
        memcpy(&w1, p1 + i, 8);
        memcpy(&w2, p2 + i, 8);
        c0 = crc32c_word(c0, w0);
        c1 = crc32c_word(c1, w1);
        c2 = crc32c_word(c2, w2);
    }
    states.a = hardware_crc32c_update(c0, p0 + common, la - common);
    states.b = hardware_crc32c_update(c1, p1 + common, lb - common);
    states.c = hardware_crc32c_update(c2, p2 + common, lc - common);
    return states;
}

#else

int hardware_crc32c_available(void) { return 0; }

uint32_t hardware_crc32c_update(uint32_t state, const void *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return state;
}

hardware_crc32c_states hardware_crc32c_update3(hardware_crc32c_states states, const void *a, size_t la, const void *b, size_t lb, const void *c, size_t lc) {
    (void)a; (void)la; (void)b; (void)lb; (void)c; (void)lc;
    return states;
}

#endif
