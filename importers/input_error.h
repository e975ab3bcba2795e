#pragma once
// The exception importers throw for input a user got wrong. It always carries a location.
#include <stdexcept>

#include "model/diagnostic.h"

namespace gantry {

class InputError : public std::runtime_error {
public:
    explicit InputError(Diagnostic diagnostic)
        : std::runtime_error(diagnostic.str()), diagnostic_(std::move(diagnostic)) {}
    InputError(SourceRef where, const std::string& message)
        : InputError(Diagnostic{Severity::Error, std::move(where), message}) {}
    const Diagnostic& diagnostic() const { return diagnostic_; }

private:
    Diagnostic diagnostic_;
};

} // namespace gantry
