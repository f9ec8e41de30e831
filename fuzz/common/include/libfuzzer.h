#ifndef CHOOSY_FUZZ_LIBFUZZER_H
#define CHOOSY_FUZZ_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own mutator, for a target's custom mutator to call on part of an input
/// (https://llvm.org/docs/LibFuzzer.html, "Custom mutators"; defined by -sanitize=fuzzer).
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#endif
