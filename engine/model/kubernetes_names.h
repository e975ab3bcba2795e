#pragma once
// Kubernetes' name rules, in one place for the readers, the exporters, the manifest validator and
// the studio's field checks.
#include <string>
#include <string_view>

namespace gantry {

// Names Kubernetes accepts, made from any name: what a queue, a flavor or a job becomes when it is
// written as an object (the exporters, and the profiles that run a project's queues as exported).
std::string dnsSubdomain(const std::string& name); // lowercase, invalid characters -> '-'
std::string dnsLabel(const std::string& name);     // as above, at most 63 characters

// Checks (k8s.io/apimachinery/pkg/util/validation, kubernetes_name_rules.cpp): "" when the text is
// valid, or the reason in Kubernetes' own terms.
std::string checkDns1123Subdomain(std::string_view name); // <= 253, lowercase, dots between labels
std::string checkDns1123Label(std::string_view name);     // <= 63, lowercase alphanumerics and '-'
std::string checkQualifiedName(std::string_view name);    // label/annotation keys: [prefix/]name
std::string checkLabelValue(std::string_view value);      // <= 63, may be empty

} // namespace gantry
