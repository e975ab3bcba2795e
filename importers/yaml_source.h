#pragma once
// Reading YAML (and JSON, which YAML 1.2 contains) with every node's location kept, so importers can
// report file:line:column for anything they reject.
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "input_error.h"
#include "model/diagnostic.h"

namespace gantry {

struct YamlDocument {
    YAML::Node root;
    std::string file;
    int index = 0; // 1-based position in a multi-document stream
};

// Parses every document of a file; a syntax error becomes an InputError at the parser's mark.
// A missing or unreadable file is an InputError naming the file and the OS reason.
std::vector<YamlDocument> loadYamlFile(const std::string& path);
std::vector<YamlDocument> loadYamlString(const std::string& text, const std::string& name);

// Location of a node (1-based line and column) in the given file.
SourceRef whereOf(const YAML::Node& node, const std::string& file, int document = 0);

} // namespace gantry
