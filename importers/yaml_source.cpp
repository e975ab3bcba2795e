#include "yaml_source.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gantry {

SourceRef whereOf(const YAML::Node& node, const std::string& file, int document) {
    SourceRef ref;
    ref.file = file;
    ref.document = document;
    if (node.IsDefined() && node.Mark().line >= 0) {
        ref.line = node.Mark().line + 1;
        ref.column = node.Mark().column + 1;
    }
    return ref;
}

std::vector<YamlDocument> loadYamlString(const std::string& text, const std::string& name) {
    std::vector<YamlDocument> docs;
    try {
        auto nodes = YAML::LoadAll(text);
        int index = 0;
        for (auto& n : nodes) docs.push_back(YamlDocument{n, name, ++index});
    } catch (const YAML::Exception& e) {
        SourceRef where{name, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0, 0};
        throw InputError(where, "YAML syntax error: " + e.msg);
    }
    return docs;
}

std::vector<YamlDocument> loadYamlFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(SourceRef{path, 0, 0, 0}, std::string("cannot open file: ") + std::strerror(errno));
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) throw InputError(SourceRef{path, 0, 0, 0}, "cannot read file");
    return loadYamlString(buffer.str(), path);
}

} // namespace gantry
