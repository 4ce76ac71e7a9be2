// A hint to the CPU to start loading a cache line that will be written soon. Swift has no way to
// emit a prefetch, so this one line is C; the user index uses it when it indexes a million users
// at once, where every insert would otherwise wait for its bucket to come from memory.
#ifndef MEMORY_PREFETCH_H
#define MEMORY_PREFETCH_H

/// Starts loading the cache line holding `address` for writing; it changes nothing else.
static inline void memory_prefetch_for_write(const void *address) { __builtin_prefetch(address, 1, 3); }

#endif
