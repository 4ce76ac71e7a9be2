// The CPU's CRC-32C instruction (SSE 4.2 on x86-64, the CRC extension on ARMv8), for EventStore's
// CRC32C. Swift has no way to emit it, so these few lines are C; EventStore falls back to its
// software tables when the CPU lacks the instruction.
#ifndef HARDWARE_CRC32C_H
#define HARDWARE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Whether this CPU has a CRC-32C instruction.
int hardware_crc32c_available(void);

/// Folds `length` bytes into the running (already inverted) CRC-32C state `state`.
/// Only call when hardware_crc32c_available() returns non-zero.
uint32_t hardware_crc32c_update(uint32_t state, const void *bytes, size_t length);

/// Three running CRC-32C states.
typedef struct { uint32_t a, b, c; } hardware_crc32c_states;

/// Folds three buffers into three running states at once, as three independent chains (each
/// instruction's latency hides behind the other two): `a` continues over `la` bytes, and so on.
/// Only call when hardware_crc32c_available() returns non-zero.
hardware_crc32c_states hardware_crc32c_update3(hardware_crc32c_states states, const void *a, size_t la, const void *b, size_t lb, const void *c, size_t lc);

#endif
