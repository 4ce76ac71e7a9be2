// Everything is in include/MemoryPrefetch.h (an inline function); a C target needs one source file.
#include "MemoryPrefetch.h"
