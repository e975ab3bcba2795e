#pragma once
// What every fuzz target shares. A target feeds one input to one reader of outside input and lets
// through only what that reader promises to throw for bad input (InputError, or LiveError for what
// comes from an API server or a credential plugin): any other exception, a crash, a hang or a
// sanitizer report is a defect. The same file builds with libFuzzer (scripts/fuzz.sh) and with the
// plain replay driver that CTest runs over the corpus (replay_main.cpp).
#include <cstddef>
#include <cstdint>
#include <string>

#define GANTRY_FUZZ_TARGET(text)                                                                             \
    static void fuzzOne(const std::string& text);                                                            \
    extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {                                \
        fuzzOne(std::string(reinterpret_cast<const char*>(data), size));                                     \
        return 0;                                                                                            \
    }                                                                                                        \
    static void fuzzOne(const std::string& text)
