// The CPU's SHA-256 instructions (the SHA extensions on x86-64, SHA-NI), for EventStore's SHA256.
// Swift has no way to emit them, so these few lines are C; EventStore falls back to its unrolled
// Swift rounds when the CPU lacks them.
#ifndef HARDWARE_SHA256_H
#define HARDWARE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has the SHA-256 instructions.
int hardware_sha256_available(void);

/// Compresses `blocks` 64-byte blocks at `data` into `state` (the eight words H0..H7 of FIPS 180-4).
/// Only call when hardware_sha256_available() returns non-zero.
void hardware_sha256_blocks(uint32_t state[8], const void *data, size_t blocks);

#endif
