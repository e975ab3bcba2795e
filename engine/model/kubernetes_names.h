#pragma once
// Names Kubernetes accepts, made from any name: what a queue, a flavor or a job becomes when it is
// written as an object (the exporters, and the profiles that run a project's queues as exported).
#include <string>

namespace gantry {

std::string dnsSubdomain(const std::string& name); // lowercase, invalid characters -> '-'
std::string dnsLabel(const std::string& name);     // as above, at most 63 characters

} // namespace gantry
